"""Summarises a bench/vector-audit.sh run: which of the connector's C2 compilations left Vector API
intrinsics unexpanded, and where the timed queries allocated Vector API objects.

    python3 bench/vector_audit.py JVM.log ALLOC.collapsed

JVM.log holds -XX:+PrintCompilation and -XX:+PrintIntrinsics output. With two cores the JVM has one
C2 thread, so a "** missing constant" line belongs to the last tier-4 compilation started before
it. ALLOC.collapsed is async-profiler's alloc profile (collapsed stacks) of the timed queries.
"""
import collections
import re
import sys

HEADER = re.compile(r"\s*\d+\s+\d+\s+([%sbn! ]*?)\s*4\s+(\S+)")


def failed_intrinsics(log):
    """(compiled method, message) -> count, for the connector's compilations only."""
    current, counts = None, collections.Counter()
    with open(log, errors="replace") as f:
        for line in f:
            m = HEADER.match(line)
            if m and "made " not in line:  # not "made not entrant" or "made zombie": a compilation starting
                current = m.group(2) + (" (OSR)" if "%" in m.group(1) else "")
            elif line.lstrip().startswith("** ") and current and "sparkzarr" in current:
                counts[(current, line.strip())] += 1
    return counts


def vector_allocations(collapsed):
    """Total samples, samples under jdk.incubator.vector, and those by the connector's innermost frame."""
    total, vector, by = 0, 0, collections.Counter()
    with open(collapsed) as f:
        for line in f:
            stack, n = line.rstrip("\n").rsplit(" ", 1)
            frames, n = stack.split(";"), int(n)
            total += n
            if any("jdk/incubator/vector" in s or "jdk.incubator.vector" in s for s in frames):
                vector += n
                ours = [s for s in frames if "sparkzarr" in s]
                by[ours[-1].split("/")[-1] if ours else "(none of ours)"] += n
    return total, vector, by


def main():
    counts = failed_intrinsics(sys.argv[1])
    print("Vector API intrinsics C2 did not expand in the connector's compilations: %d" % sum(counts.values()))
    for (method, message), n in sorted(counts.items()):
        print("  %4d  %s  %s" % (n, method, message))
    total, vector, by = vector_allocations(sys.argv[2])
    share = 100.0 * vector / total if total else 0.0
    print("Allocation samples of the timed queries: %d, of Vector API objects: %d (%.1f%%)" % (total, vector, share))
    for frame, n in by.most_common(15):
        print("  %8d  %s" % (n, frame))


if __name__ == "__main__":
    main()
