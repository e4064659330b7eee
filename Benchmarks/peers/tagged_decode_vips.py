#!/usr/bin/env python3
"""compare.py's --peer for the tagged-decode case, vips side (see tagged_decode.py)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tagged_decode
sys.argv = [sys.argv[0], 'vips'] + sys.argv[1:]
tagged_decode.main()
