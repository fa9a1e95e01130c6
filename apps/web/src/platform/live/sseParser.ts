/**
 * Incremental text/event-stream parser: feeds decoded text, returns the `data` payload of every
 * complete event (data lines joined by "\n", per the SSE format). Comments (": ping") are skipped.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  feed(text: string): string[] {
    this.buffer += text;
    const out: string[] = [];
    let newline = this.buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      const sepLength = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + sepLength);
      if (line === '') {
        if (this.data.length) out.push(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) {
        this.data.push(line.slice(5).replace(/^ /, ''));
      }
      // ":" comments, "event:", "id:" and "retry:" lines carry nothing the dashboard uses.
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
    return out;
  }
}
