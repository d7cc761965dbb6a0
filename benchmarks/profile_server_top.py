"""The hottest functions of a py-spy collapsed-stack file (``--format raw``): self and total samples.

python benchmarks/profile_server_top.py /tmp/tapete-profile/server.txt [--top 40] [--thread MainThread]
"""

from __future__ import annotations

import argparse
from collections import Counter


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("path")
    p.add_argument("--top", type=int, default=40)
    p.add_argument("--thread", default=None, help="only stacks whose first frame names this thread")
    args = p.parse_args()
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    n = 0
    with open(args.path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            frames = stack.split(";")
            if args.thread and args.thread not in frames[0]:
                continue
            k = int(count)
            n += k
            own[frames[-1]] += k
            for fr in set(frames):
                total[fr] += k
    print(f"{n} samples")
    print("-- self")
    for fr, k in own.most_common(args.top):
        print(f"{k / n:6.1%}  {fr}")
    print("-- total")
    for fr, k in total.most_common(args.top):
        print(f"{k / n:6.1%}  {fr}")


if __name__ == "__main__":
    main()
