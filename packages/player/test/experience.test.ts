import { describe, expect, it } from 'vitest';
import { Experience } from '../src/experience.js';
import { FakeVideo } from './fake-media.js';

/** A video element that tells when a frame was shown. */
class FrameVideo extends FakeVideo {
  frames = new Map<number, () => void>();
  private next = 1;
  requestVideoFrameCallback(cb: () => void): number {
    this.frames.set(this.next, cb);
    return this.next++;
  }
  cancelVideoFrameCallback(id: number) {
    this.frames.delete(id);
  }
  showFrame() {
    const pending = [...this.frames.values()];
    this.frames.clear();
    for (const cb of pending) cb();
  }
}

function setup(video: FakeVideo = new FakeVideo()) {
  const clock = { t: 1000 };
  const x = new Experience(video, () => clock.t);
  const at = (t: number) => {
    clock.t = t;
  };
  return { video, x, at };
}

const NOTHING = { playMs: 0, stallMs: 0, startupMs: [], plays: 0, failures: 0 };

describe('Experience', () => {
  it('play → playing → waiting → playing → seeking → waiting → playing → pause: startup, play and stall time, the seek’s wait not a stall', () => {
    const { video, x, at } = setup();
    at(1000);
    video.fire('play', { paused: false, readyState: 1 });
    // Waiting before the first frame is startup.
    at(1200);
    video.fire('waiting');
    at(1800);
    video.fire('playing', { readyState: 3 });
    // The picture moves on: the first frame was about when `playing` came.
    at(2000);
    video.fire('timeupdate', { currentTime: 0.2 });
    at(6000);
    video.fire('timeupdate', { currentTime: 4.2 });
    video.fire('waiting', { readyState: 2 });
    at(7500);
    video.fire('playing', { readyState: 3 });
    at(10_000);
    video.fire('seeking', { seeking: true, currentTime: 60, readyState: 1 });
    at(10_100);
    video.fire('waiting');
    at(10_600);
    video.fire('timeupdate');
    video.fire('seeked', { seeking: false });
    at(12_000);
    video.fire('playing', { readyState: 3 });
    at(15_000);
    video.fire('timeupdate', { currentTime: 63 });
    video.fire('pause', { paused: true });
    at(20_000);
    expect(x.take()).toEqual({
      // 1800 → 6000, 7500 → 10 000, 12 000 → 15 000
      playMs: 4200 + 2500 + 3000,
      stallMs: 1500,
      startupMs: [800],
      plays: 1,
      failures: 0,
    });
    expect(x.take()).toEqual(NOTHING);
  });

  it('splits a stretch still going on at each take, losing no fraction of a millisecond', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false });
    at(1100);
    video.fire('playing', { readyState: 4 });
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2100.5);
    expect(x.take()).toMatchObject({ playMs: 1000, startupMs: [100], plays: 1 });
    at(3101);
    // The half left over last time comes out here.
    expect(x.take()).toMatchObject({ playMs: 1001, startupMs: [], plays: 0 });
    video.fire('waiting', { readyState: 2 });
    at(4001);
    expect(x.take()).toMatchObject({ playMs: 0, stallMs: 900 });
    at(5001);
    expect(x.take()).toMatchObject({ stallMs: 1000 });
  });

  it('takes the first frame from requestVideoFrameCallback where the element has it', () => {
    const video = new FrameVideo();
    const { x, at } = setup(video);
    video.fire('play', { paused: false });
    at(1300);
    video.fire('playing', { readyState: 3 });
    at(1450);
    video.showFrame();
    at(2450);
    expect(x.take()).toMatchObject({ startupMs: [450], playMs: 1000, plays: 1 });
    // A later `timeupdate` does not count another start.
    video.fire('timeupdate', { currentTime: 1 });
    expect(x.take().startupMs).toEqual([]);
  });

  it('a seek while starting (a live stream jumping to its edge) is part of the startup, its timeupdate no first frame', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 1 });
    at(1100);
    video.fire('seeking', { seeking: true, currentTime: 30 });
    at(1150);
    video.fire('timeupdate', { seeking: false });
    video.fire('seeked');
    at(1400);
    video.fire('playing', { readyState: 3 });
    at(1600);
    video.fire('timeupdate', { currentTime: 30.2 });
    expect(x.take()).toMatchObject({ startupMs: [400], plays: 1, stallMs: 0, playMs: 200 });
  });

  it('a pause before the first frame gives up that startup; asking again goes on with the same play', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 1 });
    at(5000);
    video.fire('pause', { paused: true });
    at(9000);
    video.fire('play', { paused: false });
    at(9300);
    video.fire('playing', { readyState: 3 });
    video.fire('timeupdate', { currentTime: 0.1 });
    expect(x.take()).toMatchObject({ startupMs: [300], plays: 1 });
  });

  it('counts a play when first asked for and again after it ended; a resume after a pause is no play', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    at(1010);
    video.fire('timeupdate', { currentTime: 0.01 });
    at(2000);
    video.fire('pause', { paused: true });
    at(3000);
    video.fire('play', { paused: false });
    video.fire('playing');
    at(4000);
    video.fire('timeupdate', { currentTime: 2 });
    video.fire('pause', { paused: true });
    video.fire('ended');
    expect(x.take()).toMatchObject({ plays: 1, startupMs: [0], playMs: 2000 });
    at(10_000);
    video.fire('seeking', { seeking: true, currentTime: 0 });
    video.fire('seeked', { seeking: false });
    video.fire('play', { paused: false });
    at(10_050);
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.05 });
    expect(x.take()).toMatchObject({ plays: 1, startupMs: [50] });
  });

  it('a wait after play is asked for again once paused is a stall, unless the viewer sought meanwhile', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    video.fire('pause', { paused: true });
    at(2000);
    video.fire('play', { paused: false });
    video.fire('waiting', { readyState: 2 });
    at(2500);
    video.fire('playing', { readyState: 3 });
    at(3000);
    video.fire('pause', { paused: true });
    expect(x.take()).toMatchObject({ stallMs: 500, playMs: 500 });
    video.fire('seeking', { seeking: true, currentTime: 100, readyState: 1 });
    video.fire('seeked', { seeking: false });
    at(4000);
    video.fire('play', { paused: false });
    video.fire('waiting');
    at(7000);
    video.fire('playing', { readyState: 3 });
    at(8000);
    video.fire('pause', { paused: true });
    expect(x.take()).toMatchObject({ stallMs: 0, playMs: 1000, plays: 0 });
  });

  it('a seek inside the buffer plays on without a `playing`', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2000);
    video.fire('seeking', { seeking: true, currentTime: 5 });
    at(2040);
    video.fire('timeupdate', { seeking: false });
    video.fire('seeked');
    at(3040);
    expect(x.take()).toMatchObject({ playMs: 2000, stallMs: 0 });
  });

  it('a stall lasts until playback goes on, even when the position is nudged meanwhile', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2000);
    video.fire('waiting', { readyState: 2 });
    at(3000);
    video.fire('seeking', { seeking: true, currentTime: 1.2 });
    video.fire('seeked', { seeking: false });
    at(4000);
    video.fire('playing', { readyState: 3 });
    expect(x.take()).toMatchObject({ playMs: 1000, stallMs: 2000 });
  });

  it('ends a stall when the picture moves on though no `playing` came, not on a timeupdate of the stall itself', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2000);
    video.fire('waiting', { readyState: 2 });
    // Some browsers report the position the stall began at after `waiting`.
    video.fire('timeupdate', { currentTime: 1.05 });
    at(3000);
    video.fire('timeupdate', { currentTime: 1.1, readyState: 4 });
    at(3500);
    expect(x.take()).toMatchObject({ playMs: 1500, stallMs: 1000 });
  });

  it('counts a fatal error once however many report it, and again after play is asked for anew', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2000);
    video.fire('error', { error: { code: 3 } });
    x.failure();
    at(5000);
    // Nothing counts while the element sits in its error.
    video.fire('waiting', { readyState: 1 });
    expect(x.take()).toMatchObject({ failures: 1, plays: 1, playMs: 1000, stallMs: 0 });
    video.fire('play');
    // A load stopped on purpose (a new source) is no failure.
    video.fire('error', { error: { code: 1 } });
    expect(x.take()).toMatchObject({ failures: 0, plays: 1 });
    x.failure();
    expect(x.take()).toMatchObject({ failures: 1, plays: 0 });
  });

  it('a player that recovers by itself after a failure goes on with the same play', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    expect(x.take()).toMatchObject({ plays: 1, startupMs: [0] });
    x.failure();
    at(1500);
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.3 });
    at(2500);
    expect(x.take()).toMatchObject({ failures: 1, plays: 0, playMs: 1000, startupMs: [] });
  });

  it('an element already playing when observed: one play, no startup (its start was not seen)', () => {
    const video = new FakeVideo();
    Object.assign(video, { paused: false, readyState: 4, currentTime: 12 });
    const { x, at } = setup(video);
    at(1250);
    video.fire('timeupdate', { currentTime: 12.25 });
    at(2250);
    expect(x.take()).toEqual({ playMs: 1000, stallMs: 0, startupMs: [], plays: 1, failures: 0 });
  });

  it('a new source after something played is a new play; a reload while starting is not', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 1 });
    video.fire('emptied', { paused: true, readyState: 0 });
    at(1400);
    video.fire('play', { paused: false });
    video.fire('playing', { readyState: 3 });
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2400);
    video.fire('emptied', { paused: true, readyState: 0, currentTime: 0 });
    at(3000);
    video.fire('play', { paused: false });
    at(3100);
    video.fire('playing', { readyState: 3 });
    video.fire('timeupdate', { currentTime: 0.1 });
    expect(x.take()).toMatchObject({ plays: 2, startupMs: [400, 100], playMs: 1000 });
  });

  it('nothing counts while paused, and a pause no event told of stops the clock at the next take', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2000);
    video.paused = true;
    expect(x.take().playMs).toBe(1000);
    at(60_000);
    expect(x.take()).toEqual(NOTHING);
  });

  it('follows another element and stops listening to the old one', () => {
    const { video, x, at } = setup();
    video.fire('play', { paused: false, readyState: 4 });
    video.fire('playing');
    video.fire('timeupdate', { currentTime: 0.1 });
    at(2000);
    const other = new FakeVideo();
    x.observe(other);
    at(3000);
    video.fire('waiting', { readyState: 1 });
    expect(x.take()).toMatchObject({ playMs: 1000, stallMs: 0, plays: 1 });
    other.fire('play', { paused: false });
    at(3200);
    other.fire('playing', { readyState: 3 });
    other.fire('timeupdate', { currentTime: 0.1 });
    x.destroy();
    at(9000);
    other.fire('pause', { paused: true });
    expect(x.take()).toMatchObject({ plays: 1, startupMs: [200], playMs: 0 });
  });
});
