import { ApiError } from './errors.js';

/** How many of one kind of work may run at once in this instance: per user, per organization and in all. */
export interface InFlightLimits {
  perUser: number;
  perOrganization: number;
  total: number;
}

/**
 * Counts work running in this process by user and organization, and refuses
 * (429, Retry-After) what would pass a limit, before it starts: for work
 * whose cost is this process's memory, so that what one user, or one
 * organization's many free users, may hold at once is bounded.
 */
export class InFlight {
  private readonly byUser = new Map<string, number>();
  private readonly byOrganization = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly limits: InFlightLimits,
    /** What the work is, for the refusal: "content writes with files". */
    private readonly what: string,
  ) {}

  /** Runs `work` in a slot of the user and the organization, or refuses at once. */
  async run<T>(holder: { userId: string; organizationId: string }, work: () => Promise<T>): Promise<T> {
    const user = this.byUser.get(holder.userId) ?? 0;
    const organization = this.byOrganization.get(holder.organizationId) ?? 0;
    if (user >= this.limits.perUser) throw this.refusal(`you already have ${user} running`);
    if (organization >= this.limits.perOrganization)
      throw this.refusal(`this organization already has ${organization} running`);
    if (this.total >= this.limits.total) throw this.refusal(`this service already runs ${this.total}`);
    this.byUser.set(holder.userId, user + 1);
    this.byOrganization.set(holder.organizationId, organization + 1);
    this.total++;
    try {
      return await work();
    } finally {
      this.total--;
      decrement(this.byUser, holder.userId);
      decrement(this.byOrganization, holder.organizationId);
    }
  }

  private refusal(reason: string): ApiError {
    return new ApiError(429, `Too many ${this.what} at once: ${reason}; retry after the time in Retry-After`, {
      'retry-after': '1',
    });
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left === 0) counts.delete(key);
  else counts.set(key, left);
}
