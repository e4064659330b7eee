#!/usr/bin/env python3
"""Turns the benchmark outputs into Markdown tables, prints them, and optionally writes them
into README.md between the `<!-- bench:start -->` and `<!-- bench:end -->` markers.

usage: bench_table.py --pillow COMPARE_TXT --vips COMPARE_TXT [--peers PEERS_JSONL]
                      [--goal 1.0] [--rounds N] [--readme README.md] [--chart CHART.svg]

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
                if 'goal_ratio_to_get' in r:
                    # Issue 35: a hit through the manager against the cache's own get of the
                    # same keys, in the same run; the completion API alongside.
                    ok = r['ratio_to_get'] <= r['goal_ratio_to_get'] and r['completion_ratio_to_get'] <= r['goal_ratio_to_get']
                    ours += f'; completion API {r["completion_us_per_load"]:.2f} µs/load'
                    peer = f'the cache\'s get ({r["get_ns"]:.0f} ns)'
                    ratio_text = f'{r["ratio_to_get"]:.2f} / {r["completion_ratio_to_get"]:.2f}'
                    out.append(f'| {r["case"]} | {ours} | {peer} | - | {ratio_text}{" ✓" if ok else " ✗"} | ≤ {r["goal_ratio_to_get"]:.0f}x the get |')
                    rows += 1
                    continue
                if 'goal_us_per_load' in r:
                    ok = r['us_per_load'] <= r['goal_us_per_load']
                    out.append(f'| {r["case"]} | {ours} | - | - | -{" ✓" if ok else " ✗"} | ≤ {r["goal_us_per_load"]:.2f} µs/load |')
                    rows += 1
                    continue
            out.append(f'| {r["case"]} | {ours} | {r.get("peer", "-")} | {fmt(peer_ms, " ms")} | {fmt(ratio)}{verdict} | {"≤ " + fmt(goal) if goal else "-"} |')
            rows += 1
    return out if rows else []


def escape(text):
    return text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def chart(pillow, vips, goal):
    """An SVG bar chart of the image cases: for each, ours / Pillow and ours / libvips (shorter is
    faster), the goal line, on one ratio axis; the same numbers as the table."""
    cases = [c for c in list(pillow) + [c for c in vips if c not in pillow] if c in pillow or c in vips]
    ratios = [r for c in cases for r in (pillow.get(c, (0, 0, 0))[2], vips.get(c, (0, 0, 0))[2]) if r]
    scale_max = max([goal * 1.25] + [r * 1.05 for r in ratios])
    left, width, bar, gap, top = 150, 520, 9, 10, 46
    height = top + len(cases) * (2 * bar + gap) + 40
    x = lambda r: left + width * min(r, scale_max) / scale_max
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 70}" height="{height}" '
           f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="18" font-size="14" font-weight="bold">SwiftWebImage time / peer time (shorter is faster)</text>',
           f'<rect x="{left}" y="26" width="10" height="10" fill="#4c78a8"/><text x="{left + 14}" y="35">vs Pillow</text>',
           f'<rect x="{left + 90}" y="26" width="10" height="10" fill="#f58518"/><text x="{left + 104}" y="35">vs libvips</text>',
           f'<text x="{left + 190}" y="35" fill="#b00">goal {goal:.1f}x the faster peer</text>']
    for i, case in enumerate(cases):
        y = top + i * (2 * bar + gap)
        out.append(f'<text x="{left - 8}" y="{y + bar + 4}" text-anchor="end">{escape(case)}</text>')
        for j, (rows, color) in enumerate(((pillow, '#4c78a8'), (vips, '#f58518'))):
            if case not in rows:
                continue
            r = rows[case][2]
            yy = y + j * bar
            out.append(f'<rect x="{left}" y="{yy}" width="{x(r) - left:.1f}" height="{bar - 1}" fill="{color}"/>')
            out.append(f'<text x="{x(r) + 4:.1f}" y="{yy + bar - 1}" font-size="10">{r:.2f}</text>')
    gx = x(goal)
    out.append(f'<line x1="{gx:.1f}" y1="{top - 4}" x2="{gx:.1f}" y2="{height - 30}" stroke="#b00" stroke-dasharray="4 3"/>')
    for t in [0, 0.5, 1.0, 1.5, 2.0, 3.0]:
        if t <= scale_max:
            out.append(f'<text x="{x(t):.1f}" y="{height - 14}" text-anchor="middle" font-size="10">{t:.1f}x</text>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pillow')
    ap.add_argument('--vips')
    ap.add_argument('--peers')
    ap.add_argument('--goal', type=float, default=1.0)
    ap.add_argument('--rounds', type=int)
    ap.add_argument('--photos', type=int, default=200)
    ap.add_argument('--readme')
    ap.add_argument('--chart', help='also write the image cases as an SVG bar chart here')
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
    if a.chart:
        with open(a.chart, 'w') as f:
            f.write(chart(read_compare(a.pillow), read_compare(a.vips), a.goal))
        print(f'(chart written to {a.chart})')
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
