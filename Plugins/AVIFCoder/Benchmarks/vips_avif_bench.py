#!/usr/bin/env python3
"""pillow_avif_bench.py with --peer vips: the libvips peer as a script of its own, for
shared/bench/compare.py --peer (which passes no extra flags)."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pillow_avif_bench

if __name__ == '__main__':
    sys.argv += ['--peer', 'vips']
    pillow_avif_bench.main()
