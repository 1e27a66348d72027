#!/usr/bin/python3
"""PyTorch's float32 draws, for checking FullBand's TorchGenerator against the real thing.

Needs PyTorch (Debian: apt-get install python3-torch); FullBand's tests do not.

  dump_torch_draws.py DIR [BIG]   writes DIR/manifest.txt and one raw little-endian float32 file per
                                  case, for tst_torch_float_draws with FULLBAND_TORCH_DRAWS=DIR.
                                  BIG (default 2^24) is the size of one large randn for the log and
                                  sin/cos of the vectorised kernel.
  dump_torch_draws.py --constants prints the reference values tst_torch_float_draws.cpp holds.

Run under ATEN_CPU_CAPABILITY=default to dump the kernel of CPUs without AVX2 (the manifest's first
line names the kernel). Each case is manual_seed(seed), then the draw twice, so the generator state
carried from one call to the next is checked too.
"""
import math
import os
import sys

import numpy as np
import torch


def kernel_name():
    return "default" if os.environ.get("ATEN_CPU_CAPABILITY", "").lower() == "default" else "avx2"


def kaiming_bound(fan_in):
    # nn.init.kaiming_uniform_(w, a=math.sqrt(5))
    return math.sqrt(3.0) * (math.sqrt(2.0 / (1 + math.sqrt(5) ** 2)) / math.sqrt(fan_in))


def dump(out, big):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest.txt"), "w") as man:
        man.write("kernel %s\n" % kernel_name())

        def save(name, t):
            t.detach().contiguous().flatten().numpy().astype("<f4").tofile(os.path.join(out, name))

        seeds = [0, 1, 3, 7, 42, 123, 2**31 + 5]
        sizes = [1, 2, 3, 5, 8, 15, 16, 17, 20, 31, 32, 33, 100, 1000, 2048, 2304, 4097]
        bounds = [(0.0, 1.0), (-0.3, 0.3), (2.0, 5.0), (-0.125, 0.125), (-kaiming_bound(144), kaiming_bound(144))]
        for s in seeds:
            for n in sizes:
                torch.manual_seed(s)
                a, b = torch.randn(n), torch.randn(n)
                f = "randn_%d_%d.f32" % (s, n)
                save(f, torch.cat([a, b]))
                man.write("randn %d %d 0 0 %s\n" % (s, n, f))
                for k, (lo, hi) in enumerate(bounds):
                    torch.manual_seed(s)
                    a, b = torch.empty(n).uniform_(lo, hi), torch.empty(n).uniform_(lo, hi)
                    f = "uniform_%d_%d_%d.f32" % (s, n, k)
                    save(f, torch.cat([a, b]))
                    man.write("uniform %d %d %r %r %s\n" % (s, n, lo, hi, f))
        for s in [0, 5]:  # small draws cache a double normal; a large draw in between keeps it
            torch.manual_seed(s)
            parts = [torch.randn(3), torch.randn(40), torch.randn(1), torch.empty(7).uniform_(-1, 1), torch.randn(2)]
            f = "mixed_%d.f32" % s
            save(f, torch.cat(parts))
            man.write("mixed %d 53 0 0 %s\n" % (s, f))
        torch.manual_seed(11)
        save("big.f32", torch.randn(big))
        man.write("randn 11 %d 0 0 big.f32\n" % big)


def fnv(t):
    h = 0xCBF29CE484222325
    for w in t.detach().contiguous().flatten().numpy().view(np.uint32).tolist():
        h = ((h ^ w) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "0x%016x" % h


def constants():
    hx = lambda v: float(v).hex()
    print("# kernel", kernel_name())
    for seed, n in [(0, 5), (0, 16), (0, 20), (42, 100), (7, 4097), (3, 2048)]:
        torch.manual_seed(seed)
        a, b = torch.randn(n), torch.randn(n)
        print("randn seed %d n %d:" % (seed, n), hx(a[0]), hx(a[-1]), hx(b[-1]), fnv(torch.cat([a, b])))
    for seed, n, lo, hi in [(0, 2304, -kaiming_bound(144), kaiming_bound(144)), (1, 1000, -0.3, 0.3), (5, 33, 2.0, 5.0)]:
        torch.manual_seed(seed)
        a = torch.empty(n).uniform_(lo, hi)
        print("uniform_ seed %d n %d (%r, %r):" % (seed, n, lo, hi), hx(a[0]), hx(a[-1]), fnv(a))
    torch.manual_seed(0)
    lin = torch.nn.Linear(64, 32)
    print("Linear(64, 32):", hx(lin.weight[0, 0]), hx(lin.weight[-1, -1]), hx(lin.bias[0]), hx(lin.bias[-1]),
          fnv(torch.cat([lin.weight.flatten(), lin.bias])))
    torch.manual_seed(0)
    print("Conv2d(16, 16, 3) weight:", fnv(torch.nn.Conv2d(16, 16, 3, padding=1, bias=False).weight))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--constants":
        constants()
    elif len(sys.argv) >= 2:
        dump(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 24)
    else:
        sys.exit(__doc__)
