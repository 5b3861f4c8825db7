/* ember-run's variable store: the VARS region (VARSTORE_REGION_SIZE bytes, as the QEMU
 * image's VARS flash holds them) in a file given with --vars, mapped shared so that every
 * program and erase reaches the file at once; without --vars, in memory. A missing file
 * is created erased (0xFF) and the store formats it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hosted.h"
#include <ember/lib/format.h>
#include <ember/core/varstore.h>

static struct flash_ram vars_flash;

static _Noreturn void vars_fail(const char *path, const char *why)
{
	fprintf(stderr, "ember-run: --vars %s: %s\n", path, why);
	exit(2);
}

/* Opens (creating when missing) a file of exactly the region's size. */
static int open_vars_file(const char *path)
{
	static UINT8 erased[VARSTORE_BLOCK_SIZE];
	int fd = open(path, O_RDWR | O_CREAT, 0644);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		vars_fail(path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		vars_fail(path, "not a regular file");
	if (st.st_size == 0) {
		memset(erased, 0xff, sizeof(erased));
		for (UINT32 at = 0; at < VARSTORE_REGION_SIZE; at += sizeof(erased))
			if (pwrite(fd, erased, sizeof(erased), at) != (ssize_t)sizeof(erased))
				vars_fail(path, strerror(errno));
	} else if (st.st_size != VARSTORE_REGION_SIZE) {
		char why[96];
		snprintf(why, sizeof(why), "a variable store file has %u bytes, this has %lld",
			 VARSTORE_REGION_SIZE, (long long)st.st_size);
		vars_fail(path, why);
	}
	return fd;
}

static void *map_region(const char *path)
{
	void *p;
	int fd;

	if (!path) {
		p = malloc(VARSTORE_REGION_SIZE);
		if (!p)
			vars_fail("(memory)", "out of memory");
		memset(p, 0xff, VARSTORE_REGION_SIZE);
		return p;
	}
	fd = open_vars_file(path);
	p = mmap(NULL, VARSTORE_REGION_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		vars_fail(path, strerror(errno));
	close(fd);
	return p;
}

/* Starts the variable services on FILE (or in memory for NULL); exits(2) on failure. */
void hosted_vars_start(const char *path)
{
	EFI_STATUS status;

	flash_ram_init(&vars_flash, map_region(path), VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	status = variables_start(&vars_flash.dev);
	if (EFI_ERROR(status)) {
		fprintf(stderr, "ember-run: cannot start the variable services: %s\n",
			efi_status_name(status));
		exit(2);
	}
}
