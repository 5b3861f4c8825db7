/* rdtsc: prints the time-stamp counter in decimal, for the initramfs' first line. Under
 * QEMU's -icount shift=0 the counter is the machine's virtual time in nanoseconds since
 * reset, so the line says how long firmware and kernel took, the same on every run.
 * Built by tests/qemu/linux_payloads.py as a static program without libc. */
static long sys_write(int fd, const char *buf, unsigned long len)
{
	long ret;

	__asm__ __volatile__("syscall"
			     : "=a"(ret)
			     : "a"(1), "D"(fd), "S"(buf), "d"(len)
			     : "rcx", "r11", "memory");
	return ret;
}

static void __attribute__((noreturn)) sys_exit(int code)
{
	__asm__ __volatile__("syscall" : : "a"(60), "D"(code) : "rcx", "r11", "memory");
	__builtin_unreachable();
}

void __attribute__((noreturn)) _start(void)
{
	unsigned int lo, hi;
	unsigned long long tsc;
	char text[24];
	int i = sizeof(text);

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	tsc = (unsigned long long)hi << 32 | lo;
	text[--i] = '\n';
	do {
		text[--i] = (char)('0' + tsc % 10);
		tsc /= 10;
	} while (tsc);
	sys_write(1, text + i, sizeof(text) - i);
	sys_exit(0);
}
