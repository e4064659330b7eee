#!/usr/bin/env python3
"""Turns the benchmark outputs into Markdown tables, prints them, and optionally writes them
into README.md between the `<!-- bench:start -->` and `<!-- bench:end -->` markers.

usage: bench_table.py --pillow COMPARE_TXT --vips COMPARE_TXT [--peers PEERS_JSONL]
                      [--goal 1.0] [--rounds N] [--readme README.md]

--pillow and --vips are ../shared/bench/compare.py outputs against each peer (the throughput
case is in the libvips one). The image table shows both peers, each ratio, and the ratio
against the faster peer: the larger of the two ratios, since each is a median of interleaved
rounds (ours against that peer, run by run). --goal is the bound on that ratio for every image
case (issue 21: at most 1.0x the faster of libvips and Pillow).
"""
import argparse, datetime, json, os, platform, re

LINE = re.compile(r'^(\S+)\s+ours\s+([\d.]+) ms\s+(\w+)\s+([\d.]+) ms\s+ratio\s+([\d.]+)')


def machine():
    cpu = platform.processor() or 'unknown CPU'
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    return f'{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}'


def read_compare(path):
    """case -> (ours ms, peer ms, ratio), in the file's order."""
    rows = {}
    if not path or not os.path.exists(path):
        return rows
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                rows[m.group(1)] = (float(m.group(2)), float(m.group(4)), float(m.group(5)))
    return rows


def fmt(v, unit=''):
    return '-' if v is None else f'{v:.2f}{unit}'


def image_table(pillow, vips, goal, photos):
    out = ['| case | ours (median) | Pillow (median) | libvips (median) | ours / Pillow | ours / libvips | ours / faster peer | goal |',
           '|---|---|---|---|---|---|---|---|']
    cases = list(dict.fromkeys(list(pillow) + list(vips)))
    passed = failed = 0
    for case in cases:
        p, v = pillow.get(case), vips.get(case)
        against = [x for x in (p, v) if x]
        worst = max(against, key=lambda x: x[2])  # the faster peer gives the larger ratio
        ours = f'{worst[0]:.2f} ms'
        if case == 'throughput':
            ours += f' ({photos / (worst[0] / 1000):.1f} img/s)'
        ratio = worst[2]
        verdict = ''
        if goal is not None:
            ok = ratio <= goal and len(against) == (1 if case == 'throughput' else 2)
            verdict = ' ✓' if ok else ' ✗'
            passed += ok
            failed += not ok
        out.append(f'| {case} | {ours} | {fmt(p and p[1], " ms")} | {fmt(v and v[1], " ms")} | '
                   f'{fmt(p and p[2])} | {fmt(v and v[2])} | {fmt(ratio)}{verdict} | {"≤ " + fmt(goal) if goal is not None else "-"} |')
    return out, passed, failed


def peer_table(path):
    out = ['| case | ours (median) | peer | peer (median) | ratio (ours / peer) | goal |', '|---|---|---|---|---|---|']
    if not path or not os.path.exists(path):
        return []
    rows = 0
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith('{'):
                continue
            r = json.loads(line)
            peer_ms = r.get('peer_ms')
            ratio = r['median_ms'] / peer_ms if peer_ms else None
            goal = r.get('goal')
            verdict = '' if goal is None or ratio is None else (' ✓' if ratio <= goal else ' ✗')
            ours = fmt(r['median_ms'], ' ms')
            if 'us_per_load' in r:
                ours += f' ({r["us_per_load"]:.2f} µs/load)'
                if 'goal_us_per_load' in r:
                    ok = r['us_per_load'] <= r['goal_us_per_load']
                    out.append(f'| {r["case"]} | {ours} | - | - | -{" ✓" if ok else " ✗"} | ≤ {r["goal_us_per_load"]:.2f} µs/load |')
                    rows += 1
                    continue
            out.append(f'| {r["case"]} | {ours} | {r.get("peer", "-")} | {fmt(peer_ms, " ms")} | {fmt(ratio)}{verdict} | {"≤ " + fmt(goal) if goal else "-"} |')
            rows += 1
    return out if rows else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pillow')
    ap.add_argument('--vips')
    ap.add_argument('--peers')
    ap.add_argument('--goal', type=float, default=1.0)
    ap.add_argument('--rounds', type=int)
    ap.add_argument('--photos', type=int, default=200)
    ap.add_argument('--readme')
    a = ap.parse_args()
    images, passed, failed = image_table(read_compare(a.pillow), read_compare(a.vips), a.goal, a.photos)
    rounds = f'{a.rounds} interleaved rounds' if a.rounds else 'interleaved rounds'
    out = images + [
        '',
        f'Image cases: ours and each peer run one after the other, {rounds} per peer (`../shared/bench/compare.py`); '
        'Pillow and libvips (pyvips, one thread: `vips_bench.py`) each decode, resize and encode as ours does. '
        'A ratio is the median over the rounds of ours / peer; the faster peer is the one ours compares worse with, '
        f'and the goal (issue 21) is at most {a.goal:.1f}x the faster peer. '
        f'`throughput`: {a.photos} photos (`photo.jpg`) each decoded as a 400x300 thumbnail and encoded as JPEG q80 '
        'with every core busy; ours one photo per core (`DispatchQueue.concurrentPerform`), libvips '
        '(`Benchmarks/peers/vips_throughput.py`) the faster of a thread pool of one worker per core and '
        'libvips\' own threads on one photo at a time. '
        f'Goals met: {passed} of {passed + failed}.',
    ]
    others = peer_table(a.peers)
    if others:
        out += [''] + others + ['', 'Cases whose peer is not an image library, measured in one process. '
                                'For `memory-cache-get` the ratio is the speed-up goal inverted (≤ 0.2 means at least 5x faster).']
    out += ['', f'Measured {datetime.date.today().isoformat()} on {machine()}, release build, by `scripts/bench`. '
                'A ratio below 1 means SwiftWebImage is faster.']
    table = '\n'.join(out)
    print(table)
    if a.readme:
        text = open(a.readme).read()
        start, end = '<!-- bench:start -->', '<!-- bench:end -->'
        if start in text and end in text:
            before, rest = text.split(start, 1)
            _, after = rest.split(end, 1)
            open(a.readme, 'w').write(before + start + '\n' + table + '\n' + end + after)
            print(f'(written to {a.readme})')
        else:
            print(f'({a.readme} has no bench markers; not written)')


if __name__ == '__main__':
    main()
