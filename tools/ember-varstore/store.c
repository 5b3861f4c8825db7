/* ember-varstore's store: the whole file read into memory, mounted as a flash with the
 * firmware's code, written back (atomically, by rename) when a command changed it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tool.h"

/* Refuses what is not a regular file: a directory, a FIFO or a device. */
static void check_kind(const char *path, const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		exit(tool_error("%s: is a directory, not a variable store file", path));
	if (!S_ISREG(st->st_mode))
		exit(tool_error("%s: not a regular file (a variable store is a file of %u bytes)",
				path, VARSTORE_REGION_SIZE));
}

/* Reads the whole file; false when it is missing and may be created. Opening never
 * blocks: without O_NONBLOCK a FIFO would wait for a writer before fstat could refuse it. */
static bool read_file(struct tool_store *t, bool create)
{
	int fd = open(t->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	size_t done = 0;

	if (fd < 0 && errno == ENOENT && create)
		return false;
	if (fd < 0 || fstat(fd, &st) < 0)
		exit(tool_error("%s: %s", t->path, strerror(errno)));
	check_kind(t->path, &st);
	if (st.st_size != VARSTORE_REGION_SIZE)
		exit(tool_error("%s: a variable store is %u bytes, this file has %lld", t->path,
				VARSTORE_REGION_SIZE, (long long)st.st_size));
	while (done < VARSTORE_REGION_SIZE) {
		ssize_t n = read(fd, t->bytes + done, VARSTORE_REGION_SIZE - done);
		if (n <= 0)
			exit(tool_error("%s: cannot read it", t->path));
		done += (size_t)n;
	}
	close(fd);
	return true;
}

static void load(struct tool_store *t, bool create)
{
	t->bytes = malloc(VARSTORE_REGION_SIZE);
	if (!t->bytes)
		exit(tool_error("out of memory"));
	memset(t->bytes, 0xff, VARSTORE_REGION_SIZE);
	if (!read_file(t, create))
		t->dirty = true;
}

static void mount(struct tool_store *t, UINT32 flags)
{
	UINTN size = var_service_mem_size(VARSTORE_REGION_SIZE);
	EFI_STATUS status;
	char text[400];

	flash_ram_init(&t->flash, t->bytes, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	t->mem = aligned_alloc(16, size);
	if (!t->mem)
		exit(tool_error("out of memory"));
	status = var_service_init(&t->svc, &t->flash.dev, t->mem, size, flags);
	if (status == EFI_VOLUME_CORRUPTED)
		exit(tool_error("%s: not an Ember variable store (or damaged beyond repair); the "
				"'format' command makes a new one",
				t->path));
	if (EFI_ERROR(status))
		exit(tool_error("%s: cannot mount it: %s", t->path, status_text(status)));
	var_service_set_crypto(&t->svc, pkcs7_verify, hash_buffer);
	if (t->svc.nv.report.formatted)
		t->dirty = true;
	if (vstore_report_text(&t->svc.nv.report, text, sizeof(text)))
		fprintf(stderr, "ember-varstore: %s: %s\n", t->path, text);
}

void store_open(struct tool_store *t, const char *path, bool create)
{
	memset(t, 0, sizeof(*t));
	t->path = path;
	load(t, create);
	mount(t, VSTORE_NO_REFORMAT);
}

void store_format(struct tool_store *t, const char *path)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->path = path;
	if (stat(path, &st) == 0)
		check_kind(path, &st);
	t->bytes = malloc(VARSTORE_REGION_SIZE);
	if (!t->bytes)
		exit(tool_error("out of memory"));
	memset(t->bytes, 0xff, VARSTORE_REGION_SIZE);
	mount(t, 0);
	t->dirty = true;
}

/* Writes the bytes to tmp, then renames it over target; tmp never stays behind. */
static int write_file(struct tool_store *t, const char *tmp, const char *target)
{
	FILE *f = fopen(tmp, "wb");
	bool ok = f && fwrite(t->bytes, 1, VARSTORE_REGION_SIZE, f) == VARSTORE_REGION_SIZE;
	int error;

	if (f && fclose(f) != 0)
		ok = false;
	if (ok && rename(tmp, target) == 0)
		return 0;
	error = errno;
	unlink(tmp);
	return tool_error("%s: cannot write it: %s", t->path, strerror(error));
}

int store_close(struct tool_store *t)
{
	/* Through a symbolic link, the file it names is replaced, not the link. */
	char *target = t->dirty ? realpath(t->path, NULL) : NULL;
	const char *path = target ? target : t->path;
	char *tmp = t->dirty ? malloc(strlen(path) + 8) : NULL;
	int status = 0;

	if (t->dirty && !tmp)
		status = tool_error("out of memory");
	else if (t->dirty) {
		snprintf(tmp, strlen(path) + 8, "%s.tmp", path);
		status = write_file(t, tmp, path);
	}
	free(tmp);
	free(target);
	free(t->mem);
	free(t->bytes);
	return status;
}
