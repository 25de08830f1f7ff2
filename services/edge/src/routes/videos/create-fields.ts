import { GatewayError } from '@gateway/errors';
import type { FastifyRequest } from 'fastify';

// POST /v1/videos's fields, read from JSON or multipart/form-data (the openai SDK v7 sends multipart).

const FIELDS = ['model', 'prompt', 'seconds', 'resolution', 'ratio', 'input_reference', 'size'] as const;
type Field = (typeof FIELDS)[number];

function asText(value: unknown, field: string): string {
  if (value === undefined || value === null) return '';
  // Only seconds is a number; it may come as one (JSON) or as digits (multipart, the openai SDK).
  if (typeof value === 'string' && (field !== 'seconds' || /^\d{1,4}$/.test(value))) return value;
  if (field === 'seconds' && typeof value === 'number' && Number.isInteger(value)) return String(value);
  throw new GatewayError('invalid_request', {
    param: field,
    message: `Invalid value for '${field}': must be a ${field === 'seconds' ? 'whole number' : 'string'}.`,
  });
}

/**
 * `input_reference` as a URL: the plain string, or the openai SDK's object form
 * `{ image_url: "…" }`; any other shape is a 422 naming the field, never dropped.
 */
function imageReference(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const url = (value as { image_url?: unknown }).image_url;
    if (typeof url === 'string') return url;
    throw new GatewayError('invalid_request', {
      param: 'input_reference',
      message: "Invalid value for 'input_reference': must be an image URL, or an object with an 'image_url' string.",
    });
  }
  return asText(value, 'input_reference');
}

/** The create request's fields as strings, from JSON or multipart/form-data (the openai SDK v7 sends multipart). */
export async function readCreate(request: FastifyRequest): Promise<Record<Field, string>> {
  const out = Object.fromEntries(FIELDS.map((f) => [f, ''])) as Record<Field, string>;
  if (request.isMultipart()) {
    try {
      await readParts(request, out);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      // The form parser's own complaints (no boundary, cut short, too large) are the caller's.
      const code = (error as { code?: unknown }).code;
      throw new GatewayError(code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FIELDS_LIMIT' ? 'request_too_large' : 'invalid_request', {
        message: `The multipart/form-data body could not be read: ${(error as Error).message.split('\n')[0]}`,
      });
    }
    return out;
  }
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object or multipart/form-data.' });
  }
  for (const field of FIELDS) {
    // Own keys only: a body without "model" must not find Object.prototype's members.
    const value = Object.hasOwn(body, field) ? (body as Record<string, unknown>)[field] : undefined;
    out[field] = field === 'input_reference' ? imageReference(value) : asText(value, field);
  }
  return out;
}

async function readParts(request: FastifyRequest, out: Record<Field, string>): Promise<void> {
  for await (const part of request.parts()) {
    // The object form of input_reference, as form encoders write nested fields.
    if (part.fieldname === 'input_reference[image_url]' && part.type === 'field') {
      out.input_reference = asText(part.value, 'input_reference');
      continue;
    }
    if (!(FIELDS as readonly string[]).includes(part.fieldname)) {
      if (part.type === 'file') part.file.resume();
      continue;
    }
    if (part.type === 'file') {
      part.file.resume();
      throw new GatewayError('invalid_request', {
        param: part.fieldname,
        message: `Invalid value for '${part.fieldname}': must be a text field${part.fieldname === 'input_reference' ? ' holding one image URL' : ''}, not a file.`,
      });
    }
    out[part.fieldname as Field] = asText(part.value, part.fieldname);
  }
}
