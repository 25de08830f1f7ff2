import { useState } from 'preact/hooks';
import { get, type Session, VIDEO_STATUSES, type VideoPage } from '../api';
import { Head, PagerControls, Status } from '../components';
import { formatCount, formatTime } from '../format';
import { usePager, usePoll } from '../hooks';
import { PAGE_SIZE } from './keys';

const LABELS: Record<string, string> = {
  queued: 'Queued',
  in_progress: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** Video jobs of every key: how many in each status, and the jobs, filtered by status. */
export function VideosView({ session }: { session: Session }) {
  const [status, setStatus] = useState('');
  const pager = usePager();
  const { data, error } = usePoll(
    (signal) => get<VideoPage>(session, '/admin/v1/videos', { status, limit: PAGE_SIZE, after: pager.after }, signal),
    [session, status, pager.after],
  );
  const choose = (next: string) => {
    setStatus(next);
    pager.reset();
  };
  return (
    <section data-testid="videos" data-state={data ? 'ready' : error ? 'error' : 'loading'}>
      <h1>Video jobs</h1>
      <Status loaded={Boolean(data)} error={error} />
      {data ? (
        <>
          <dl class="figures">
            {VIDEO_STATUSES.map((name) => (
              <div class="figure" key={name}>
                <dt>{LABELS[name]}</dt>
                <dd data-testid={`video-count-${name}`} data-value={data.counts[name] ?? 0}>
                  {formatCount(data.counts[name] ?? 0)}
                </dd>
              </div>
            ))}
          </dl>
          <label class="filter">
            Status{' '}
            <select data-testid="video-status" value={status} onChange={(event) => choose(event.currentTarget.value)}>
              <option value="">All</option>
              {VIDEO_STATUSES.map((name) => (
                <option key={name} value={name}>
                  {LABELS[name]}
                </option>
              ))}
            </select>
          </label>
          <Status
            loaded
            error={undefined}
            empty={data.data.length === 0 ? `No video jobs${status ? ` ${LABELS[status]?.toLowerCase()}` : ''}.` : undefined}
          />
          {data.data.length > 0 ? (
            <table data-testid="videos-table">
              <Head columns={['Job', 'Key', 'Model', 'Status', '+Progress', 'Created', 'Finished']} />
              <tbody>
                {data.data.map((job) => (
                  <tr key={job.id} data-testid="video-row" data-id={job.id}>
                    <td>
                      <code>{job.id}</code>
                    </td>
                    <td>
                      <a href={`#/keys/${encodeURIComponent(job.key_id)}`}>{job.key_id}</a>
                    </td>
                    <td>{job.model}</td>
                    <td>
                      <span class={`status ${job.status}`}>{LABELS[job.status] ?? job.status}</span>
                    </td>
                    <td class="num">
                      <progress max={100} value={job.progress} aria-label={`${job.progress}%`} /> {job.progress}%
                    </td>
                    <td>{formatTime(job.created_at)}</td>
                    <td>{formatTime(job.completed_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <PagerControls pager={pager} hasMore={data.has_more} nextAfter={data.next_after} />
        </>
      ) : null}
    </section>
  );
}
