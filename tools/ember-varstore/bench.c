/* ember-varstore --bench: the store's latency on a RAM flash (as ember-run's), measured
 * in this process with the host's monotonic clock, through the variable services'
 * functions (the EFIAPI layer adds a TPL raise and restore). Prints Markdown rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

#define VARIABLES 500
#define GETS 1000000
#define SETS 20000
#define MOUNTS 200
#define COMPACTIONS 20

struct bench {
	UINT8 *bytes;
	struct flash_ram flash;
	struct var_service svc;
	void *mem;
};

static const EFI_GUID bench_guid = {0xbe9c4b11, 0x0b3a, 0x4f9e, {1, 2, 3, 4, 5, 6, 7, 8}};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bench_open(struct bench *b)
{
	UINTN size = var_service_mem_size(VARSTORE_REGION_SIZE);

	b->bytes = malloc(VARSTORE_REGION_SIZE);
	b->mem = aligned_alloc(16, size);
	memset(b->bytes, 0xff, VARSTORE_REGION_SIZE);
	flash_ram_init(&b->flash, b->bytes, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	if (EFI_ERROR(var_service_init(&b->svc, &b->flash.dev, b->mem, size, 0)))
		exit(tool_error("bench: cannot mount a store"));
}

static void bench_close(struct bench *b)
{
	free(b->mem);
	free(b->bytes);
}

static void bench_name(CHAR16 *name, const char *prefix, unsigned i)
{
	char text[32];

	snprintf(text, sizeof(text), "%s%04u", prefix, i);
	for (size_t j = 0; j <= strlen(text); j++)
		name[j] = (CHAR16)text[j];
}

/* n variables of size bytes; returns how many fitted. */
static unsigned fill(struct bench *b, const char *prefix, unsigned n, UINTN size)
{
	UINT8 data[256];
	CHAR16 name[32];
	unsigned i;

	for (i = 0; i < n; i++) {
		memset(data, (int)i, sizeof(data));
		bench_name(name, prefix, i);
		if (var_set(&b->svc, name, &bench_guid,
			    EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS, size,
			    data) != EFI_SUCCESS)
			break;
	}
	return i;
}

static double get_ns(unsigned variables)
{
	static CHAR16 names[VARIABLES][32];
	struct bench b;
	UINT8 data[64];
	double start, sum = 0;

	bench_open(&b);
	fill(&b, "BenchVar", variables, 48);
	for (unsigned i = 0; i < variables; i++)
		bench_name(names[i], "BenchVar", i);
	start = now_ns();
	for (unsigned i = 0; i < GETS; i++) {
		UINTN size = sizeof(data);
		var_get(&b.svc, names[(i * 7919u) % variables], &bench_guid, NULL, &size, data);
		sum += data[0];
	}
	start = (now_ns() - start) / GETS;
	bench_close(&b);
	return sum >= 0 ? start : 0;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void set_figures(double *set_us, double *compact_us, UINT32 *compactions)
{
	static CHAR16 names[VARIABLES][32];
	double start, times[COMPACTIONS];
	struct bench b;
	UINT8 data[48];

	bench_open(&b);
	fill(&b, "BenchVar", VARIABLES, 48);
	for (unsigned i = 0; i < VARIABLES; i++)
		bench_name(names[i], "BenchVar", i);
	start = now_ns();
	for (unsigned i = 0; i < SETS; i++) {
		memset(data, (int)i, sizeof(data));
		var_set(&b.svc, names[(i * 7919u) % VARIABLES], &bench_guid,
			EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS, sizeof(data),
			data);
	}
	*set_us = (now_ns() - start) / SETS / 1000;
	*compactions = b.svc.nv.compactions;
	for (int i = 0; i < COMPACTIONS; i++) {
		start = now_ns();
		vstore_compact(&b.svc.nv);
		times[i] = now_ns() - start;
	}
	qsort(times, COMPACTIONS, sizeof(double), compare_double);
	*compact_us = times[COMPACTIONS / 2] / 1000;
	bench_close(&b);
}

/* A store filled to the last byte with 200-byte variables, mounted again and again. */
static double mount_ms(unsigned *variables, UINT32 *bytes)
{
	double times[MOUNTS];
	struct bench b;
	struct vstore s;
	UINTN size = vstore_mem_size(VARSTORE_REGION_SIZE);
	void *mem = aligned_alloc(16, size);

	bench_open(&b);
	*variables = fill(&b, "BenchFull", 100000, 200);
	*variables += fill(&b, "BenchTail", 100000, 1);
	*bytes = b.svc.nv.live_bytes[0] + b.svc.nv.live_bytes[1];
	for (int i = 0; i < MOUNTS; i++) {
		double start = now_ns();
		vstore_mount(&s, &b.flash.dev, mem, size, VSTORE_NO_REFORMAT);
		times[i] = now_ns() - start;
	}
	qsort(times, MOUNTS, sizeof(double), compare_double);
	free(mem);
	bench_close(&b);
	return times[MOUNTS / 2] / 1e6;
}

int cmd_bench(void)
{
	double get500 = get_ns(VARIABLES), get10 = get_ns(10), set_us, compact_us, mount;
	UINT32 compactions, bytes;
	unsigned full;

	set_figures(&set_us, &compact_us, &compactions);
	mount = mount_ms(&full, &bytes);
	printf("| GetVariable, %u variables in the store (mean of %u calls) | %.0f ns |\n",
	       VARIABLES, GETS, get500);
	printf("| GetVariable, 10 variables in the store (mean of %u calls) | %.0f ns |\n", GETS,
	       get10);
	printf("| SetVariable updating one of %u variables, 48 bytes (mean of %u calls, %u "
	       "compactions included) | %.1f µs |\n",
	       VARIABLES, SETS, compactions, set_us);
	printf("| Compaction of %u variables into the spare area (median of %u) | %.0f µs |\n",
	       VARIABLES, COMPACTIONS, compact_us);
	printf("| Mount of a full 256 KiB store (%u variables, %u bytes of records; median of %u) "
	       "| %.3f ms |\n",
	       full, bytes, MOUNTS, mount);
	return 0;
}
