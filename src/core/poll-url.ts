// Where a job is polled (D18): the 202's pollUrl, a job event's poll_url and GET /v1/jobs/{jobId}.
export const pollUrl = (jobId: string) => `/v1/jobs/${jobId}`;
