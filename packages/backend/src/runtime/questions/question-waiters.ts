import type { Question } from './question';

interface Waiter {
  sessionId: string;
  resolve: (question: Question) => void;
  reject: (error: unknown) => void;
}

/**
 * The ask_user_question calls held open in this process, by question id. Whoever settles a question
 * (the answer route after its compare-and-set commits, the timeout, an abort, a session stop) hands the
 * settled row to its waiter; settling twice is a no-op. No polling: a waiter is a promise.
 */
export class QuestionWaiters {
  private readonly waiting = new Map<string, Waiter>();

  /** Registers before the row exists, so an answer can never slip in between insert and wait. */
  add(questionId: string, sessionId: string): Promise<Question> {
    return new Promise<Question>((resolve, reject) => {
      this.waiting.set(questionId, { sessionId, resolve, reject });
    });
  }

  has(questionId: string): boolean {
    return this.waiting.has(questionId);
  }

  /** Every question id held open here. */
  ids(): string[] {
    return [...this.waiting.keys()];
  }

  /** The question ids held open for any of these sessions. */
  forSessions(sessionIds: readonly string[]): string[] {
    const wanted = new Set(sessionIds);
    return [...this.waiting].filter(([, waiter]) => wanted.has(waiter.sessionId)).map(([id]) => id);
  }

  settle(question: Question): void {
    const waiter = this.waiting.get(question.id);
    this.waiting.delete(question.id);
    waiter?.resolve(question);
  }

  fail(questionId: string, error: unknown): void {
    const waiter = this.waiting.get(questionId);
    this.waiting.delete(questionId);
    waiter?.reject(error);
  }

  remove(questionId: string): void {
    this.waiting.delete(questionId);
  }

  get size(): number {
    return this.waiting.size;
  }
}
