// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tinyguest - a tiny KVM guest that samples its own TSC.
 *
 * Runs a real-mode guest straight on /dev/kvm (no QEMU). The guest reads its
 * TSC with rdtsc and hands each sample to the host through port I/O:
 *
 *	port 0x10  <- EAX (TSC bits 0..31)
 *	port 0x11  <- EDX (TSC bits 32..63)
 *	port 0x12  <- sample index
 *
 * N times, then hlt. For every sample the host prints one line
 *
 *	sample <i> guest_tsc <g> host_tsc_before <b> host_tsc_after <a>
 *
 * where <b> is the host's rdtsc just before the KVM_RUN ioctl during which
 * the guest took the sample, and <a> the host's rdtsc right after that
 * KVM_RUN returned with the exit for port 0x10. So, on the host's TSC,
 * b < guest sample < a.
 *
 * With -o FILE the samples are also written as a binary kvmtrace stream
 * (little-endian, no magic): per sample one record
 *	u32 hdr = 0x00030001 | 3 << 28 | 1 << 31   (GUEST_SAMPLE, 3 words, TSC)
 *	u32 pid (the vCPU thread's tid), u32 vcpu_id (0),
 *	u64 tsc (the guest TSC), u32 index, u32 tsc_lo, u32 tsc_hi
 *
 * Build: cc -O2 -Wall -o tinyguest contrib/tinyguest.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kvm.h>

#define GUEST_MEM_SIZE	0x10000
#define GUEST_CODE_ADDR	0x1000

#define GUEST_SAMPLE_ID	0x00030001u

#define MSR_IA32_TSC	0x10

/*
 * Guest code, 16-bit real mode, loaded at 0000:1000. ECX = N on entry.
 * (Assembled with `as --32` on ".code16" source; see contrib/README.)
 */
static const uint8_t guest_code[] = {
	0x66, 0x31, 0xf6,	/* 00: xor  %esi,%esi                  */
				/* loop:                               */
	0x0f, 0x31,		/* 03: rdtsc                           */
	0x66, 0xe7, 0x10,	/* 05: out  %eax,$0x10   TSC low       */
	0x66, 0x89, 0xd0,	/* 08: mov  %edx,%eax                  */
	0x66, 0xe7, 0x11,	/* 0b: out  %eax,$0x11   TSC high      */
	0x66, 0x89, 0xf0,	/* 0e: mov  %esi,%eax                  */
	0x66, 0xe7, 0x12,	/* 11: out  %eax,$0x12   sample index  */
	0x66, 0x46,		/* 14: inc  %esi                       */
	0x66, 0x39, 0xce,	/* 16: cmp  %ecx,%esi                  */
	0x72, 0xe8,		/* 19: jb   loop (0x03)                */
	0xf4,			/* 1b: hlt                             */
};

static inline uint64_t host_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static int write_sample(FILE *f, uint32_t pid, uint32_t idx, uint64_t tsc)
{
	uint8_t rec[32];

	put_le32(rec + 0, GUEST_SAMPLE_ID | 3u << 28 | 1u << 31);
	put_le32(rec + 4, pid);
	put_le32(rec + 8, 0);
	put_le32(rec + 12, (uint32_t)tsc);
	put_le32(rec + 16, (uint32_t)(tsc >> 32));
	put_le32(rec + 20, idx);
	put_le32(rec + 24, (uint32_t)tsc);
	put_le32(rec + 28, (uint32_t)(tsc >> 32));
	return fwrite(rec, sizeof(rec), 1, f) == 1 ? 0 : -1;
}

static int set_guest_tsc(int vcpufd, uint64_t value)
{
	struct {
		struct kvm_msrs hdr;
		struct kvm_msr_entry entry;
	} msrs;

	memset(&msrs, 0, sizeof(msrs));
	msrs.hdr.nmsrs = 1;
	msrs.entry.index = MSR_IA32_TSC;
	msrs.entry.data = value;
	if (ioctl(vcpufd, KVM_SET_MSRS, &msrs) != 1)
		return -1;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tinyguest [-n N] [-o FILE] [-t TSC] [-T K:TSC] [-m] [-q]\n"
		"  -n N       number of samples (default 20)\n"
		"  -o FILE    also write the samples as a kvmtrace stream\n"
		"  -t TSC     set the guest TSC (MSR 0x10) before the first run\n"
		"  -T K:TSC   set the guest TSC to TSC before sample K\n"
		"  -m         write each sample to tracefs trace_marker too\n"
		"  -q         do not print the per-sample lines\n");
}

int main(int argc, char **argv)
{
	unsigned long nsamples = 20;
	const char *outpath = NULL;
	int have_tsc = 0, have_tsc2 = 0, markers = 0, quiet = 0;
	uint64_t init_tsc = 0, tsc2 = 0;
	unsigned long tsc2_at = 0;
	FILE *out = NULL;
	int kvm, vmfd, vcpufd, markfd = -1;
	int opt, ret = 1;
	uint8_t *mem;
	struct kvm_run *run;
	long mmap_size;
	uint32_t tid;
	uint64_t t_before = 0, t_after = 0;
	uint64_t tsc_lo = 0, tsc_hi = 0;
	unsigned long seen = 0;
	char *end;

	while ((opt = getopt(argc, argv, "n:o:t:T:mqh")) != -1) {
		switch (opt) {
		case 'n':
			nsamples = strtoul(optarg, &end, 0);
			if (*end || nsamples < 1 || nsamples > 0xffffffffUL) {
				fprintf(stderr, "tinyguest: bad -n %s\n", optarg);
				return 2;
			}
			break;
		case 'o':
			outpath = optarg;
			break;
		case 't':
			init_tsc = strtoull(optarg, &end, 0);
			if (*end) {
				fprintf(stderr, "tinyguest: bad -t %s\n", optarg);
				return 2;
			}
			have_tsc = 1;
			break;
		case 'T':
			tsc2_at = strtoul(optarg, &end, 0);
			if (*end != ':') {
				fprintf(stderr, "tinyguest: bad -T %s\n", optarg);
				return 2;
			}
			tsc2 = strtoull(end + 1, &end, 0);
			if (*end) {
				fprintf(stderr, "tinyguest: bad -T %s\n", optarg);
				return 2;
			}
			have_tsc2 = 1;
			break;
		case 'm':
			markers = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	if (outpath) {
		out = fopen(outpath, "wb");
		if (!out) {
			fprintf(stderr, "tinyguest: cannot open %s: %s\n", outpath,
				strerror(errno));
			return 1;
		}
	}
	if (markers) {
		markfd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
		if (markfd < 0)
			fprintf(stderr, "tinyguest: trace_marker: %s (markers off)\n",
				strerror(errno));
	}

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0) {
		perror("tinyguest: /dev/kvm");
		return 1;
	}
	if (ioctl(kvm, KVM_GET_API_VERSION, NULL) != KVM_API_VERSION) {
		fprintf(stderr, "tinyguest: unexpected KVM API version\n");
		return 1;
	}
	vmfd = ioctl(kvm, KVM_CREATE_VM, 0UL);
	if (vmfd < 0) {
		perror("tinyguest: KVM_CREATE_VM");
		return 1;
	}

	mem = mmap(NULL, GUEST_MEM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("tinyguest: mmap");
		return 1;
	}
	memcpy(mem + GUEST_CODE_ADDR, guest_code, sizeof(guest_code));

	struct kvm_userspace_memory_region region = {
		.slot = 0,
		.guest_phys_addr = 0,
		.memory_size = GUEST_MEM_SIZE,
		.userspace_addr = (uintptr_t)mem,
	};
	if (ioctl(vmfd, KVM_SET_USER_MEMORY_REGION, &region) < 0) {
		perror("tinyguest: KVM_SET_USER_MEMORY_REGION");
		return 1;
	}

	vcpufd = ioctl(vmfd, KVM_CREATE_VCPU, 0UL);
	if (vcpufd < 0) {
		perror("tinyguest: KVM_CREATE_VCPU");
		return 1;
	}
	mmap_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, NULL);
	if (mmap_size < (long)sizeof(*run)) {
		perror("tinyguest: KVM_GET_VCPU_MMAP_SIZE");
		return 1;
	}
	run = mmap(NULL, mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpufd, 0);
	if (run == MAP_FAILED) {
		perror("tinyguest: mmap vcpu");
		return 1;
	}

	struct kvm_sregs sregs;
	if (ioctl(vcpufd, KVM_GET_SREGS, &sregs) < 0) {
		perror("tinyguest: KVM_GET_SREGS");
		return 1;
	}
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpufd, KVM_SET_SREGS, &sregs) < 0) {
		perror("tinyguest: KVM_SET_SREGS");
		return 1;
	}
	struct kvm_regs regs = {
		.rip = GUEST_CODE_ADDR,
		.rcx = nsamples,
		.rflags = 0x2,
	};
	if (ioctl(vcpufd, KVM_SET_REGS, &regs) < 0) {
		perror("tinyguest: KVM_SET_REGS");
		return 1;
	}
	if (have_tsc && set_guest_tsc(vcpufd, init_tsc) < 0) {
		perror("tinyguest: KVM_SET_MSRS IA32_TSC");
		return 1;
	}

	tid = (uint32_t)syscall(SYS_gettid);
	printf("# tinyguest pid %d tid %u samples %lu\n", (int)getpid(), tid,
	       nsamples);
	{
		int khz = ioctl(vcpufd, KVM_GET_TSC_KHZ, 0);

		if (khz > 0)
			printf("# guest_tsc_khz %d\n", khz);
	}
	printf("# host_tsc_start %" PRIu64 "\n", host_rdtsc());
	fflush(stdout);

	for (;;) {
		uint64_t tb, ta;

		tb = host_rdtsc();
		if (ioctl(vcpufd, KVM_RUN, NULL) < 0) {
			perror("tinyguest: KVM_RUN");
			goto out;
		}
		ta = host_rdtsc();

		switch (run->exit_reason) {
		case KVM_EXIT_HLT:
			ret = 0;
			goto out;
		case KVM_EXIT_IO: {
			uint32_t v;

			if (run->io.direction != KVM_EXIT_IO_OUT ||
			    run->io.size != 4 || run->io.count != 1) {
				fprintf(stderr, "tinyguest: unexpected io port 0x%x\n",
					run->io.port);
				goto out;
			}
			memcpy(&v, (uint8_t *)run + run->io.data_offset, 4);
			switch (run->io.port) {
			case 0x10:
				tsc_lo = v;
				t_before = tb;
				t_after = ta;
				break;
			case 0x11:
				tsc_hi = v;
				break;
			case 0x12: {
				uint64_t g = tsc_hi << 32 | tsc_lo;

				if (v != seen) {
					fprintf(stderr, "tinyguest: sample %u, expected %lu\n",
						v, seen);
					goto out;
				}
				if (!quiet)
					printf("sample %u guest_tsc %" PRIu64
					       " host_tsc_before %" PRIu64
					       " host_tsc_after %" PRIu64 "\n",
					       v, g, t_before, t_after);
				if (out && write_sample(out, tid, v, g) < 0) {
					perror("tinyguest: write");
					goto out;
				}
				if (markfd >= 0)
					dprintf(markfd, "tinyguest sample %u guest_tsc %" PRIu64 "\n",
						v, g);
				seen++;
				if (have_tsc2 && seen == tsc2_at &&
				    set_guest_tsc(vcpufd, tsc2) < 0) {
					perror("tinyguest: KVM_SET_MSRS IA32_TSC");
					goto out;
				}
				break;
			}
			default:
				fprintf(stderr, "tinyguest: unexpected port 0x%x\n",
					run->io.port);
				goto out;
			}
			break;
		}
		case KVM_EXIT_FAIL_ENTRY:
			fprintf(stderr, "tinyguest: KVM_EXIT_FAIL_ENTRY reason 0x%llx\n",
				(unsigned long long)run->fail_entry.hardware_entry_failure_reason);
			goto out;
		case KVM_EXIT_INTERNAL_ERROR:
			fprintf(stderr, "tinyguest: KVM_EXIT_INTERNAL_ERROR suberror 0x%x\n",
				run->internal.suberror);
			goto out;
		default:
			fprintf(stderr, "tinyguest: unexpected exit reason %u\n",
				run->exit_reason);
			goto out;
		}
	}
out:
	printf("# host_tsc_end %" PRIu64 "\n", host_rdtsc());
	if (ret == 0 && seen != nsamples) {
		fprintf(stderr, "tinyguest: got %lu samples, expected %lu\n", seen,
			nsamples);
		ret = 1;
	}
	if (out && fclose(out) != 0) {
		perror("tinyguest: close");
		ret = 1;
	}
	return ret;
}
