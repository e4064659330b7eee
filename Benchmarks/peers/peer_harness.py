"""What the peer benchmark scripts of this repository share (the root's Benchmarks/peers and the
plug-ins' Benchmarks folders): the timing of one case and the command line of pillow_bench.py.

A plug-in's script finds this file from its own place:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'Benchmarks', 'peers'))
"""
import argparse, statistics, time


def timed(fn, n):
    """The median and the minimum of n runs of fn, in milliseconds, after one warm-up run."""
    fn()
    ts = []
    for _ in range(n):
        t = time.perf_counter(); fn(); ts.append((time.perf_counter() - t) * 1000)
    return statistics.median(ts), min(ts)


def parse_arguments(default_cases='', extra=None, argv=None):
    """INPUT_DIR [--iterations N] [--cases a,b] (and what extra(parser) adds)."""
    parser = argparse.ArgumentParser()
    parser.add_argument('inputs')
    parser.add_argument('--iterations', type=int, default=7)
    parser.add_argument('--cases', default=default_cases)
    if extra:
        extra(parser)
    return parser.parse_args(argv)
