#!/usr/bin/env python3
"""The libvips side of webimage-bench's `throughput` case: 200 photos, each decoded as a
thumbnail that fits 400x300 and encoded as JPEG quality 80, with every core busy.

usage: vips_throughput.py INPUT_DIR [--iterations N] [--cases throughput] [--photos 200]
Prints one JSON object per case, as ../shared/bench/pillow_bench.py does, so that
../shared/bench/compare.py can run it with --peer.

The same bytes as ours: INPUT_DIR/photo.jpg, read once; each job is
`thumbnail_buffer(bytes, 400, height=300)` then `write_to_buffer('.jpg', Q=80)` (as
vips_bench.py's `pipeline` case). libvips is given the better of its two ways to use the cores,
each timed, and the faster one is reported as `median_ms` (both are in the line):
- `pool`: a thread pool of one worker per core, each job on one libvips thread
  (`concurrency_set(1)`; pyvips releases the GIL inside libvips), as imgproxy-style servers run
  it, and as ours runs (one photo per core at a time);
- `vips`: one photo at a time, libvips' own thread pool using every core
  (`concurrency_set(cores)`).
"""
import argparse, json, os, statistics, time
from concurrent.futures import ThreadPoolExecutor


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('inputs')
    ap.add_argument('--iterations', type=int, default=7)
    ap.add_argument('--cases', default='throughput')
    ap.add_argument('--photos', type=int, default=200)
    a = ap.parse_args()
    import pyvips
    pyvips.cache_set_max(0)
    cores = os.cpu_count() or 1
    photo = open(os.path.join(a.inputs, 'photo.jpg'), 'rb').read()
    count = a.photos

    def job(_):
        return len(pyvips.Image.thumbnail_buffer(photo, 400, height=300).write_to_buffer('.jpg', Q=80))

    def pool():
        with ThreadPoolExecutor(max_workers=cores) as executor:
            return sum(executor.map(job, range(count)))

    def sequential():
        return sum(job(i) for i in range(count))

    def timed(fn, threads, n):
        pyvips.concurrency_set(threads)
        fn()
        samples = []
        for _ in range(n):
            start = time.perf_counter(); fn(); samples.append((time.perf_counter() - start) * 1000)
        return statistics.median(samples), min(samples)

    for name in [c for c in a.cases.split(',') if c]:
        if name != 'throughput':
            continue
        # Each run takes seconds: half the iterations, at least 3 (as ours).
        n = max(3, a.iterations // 2)
        pool_med, pool_min = timed(pool, 1, n)
        vips_med, vips_min = timed(sequential, cores, n)
        mode, med, mn = min(('pool', pool_med, pool_min), ('vips', vips_med, vips_min), key=lambda m: m[1])
        print(json.dumps({
            'case': name, 'median_ms': round(med, 3), 'min_ms': round(mn, 3), 'iterations': n,
            'mode': mode, 'images_per_second': round(count / (med / 1000), 2),
            'pool_ms': round(pool_med, 3), 'vips_threads_ms': round(vips_med, 3),
            'photos': count, 'cores': cores,
        }), flush=True)


if __name__ == '__main__':
    main()
