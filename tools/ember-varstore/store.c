/* ember-varstore's store: the whole file read into memory, mounted as a flash with the
 * firmware's code, written back (atomically, by rename) when a command changed it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool.h"

static void load(struct tool_store *t, bool create)
{
	FILE *f = fopen(t->path, "rb");
	struct stat st;

	t->bytes = malloc(VARSTORE_REGION_SIZE);
	if (!t->bytes)
		exit(tool_error("out of memory"));
	memset(t->bytes, 0xff, VARSTORE_REGION_SIZE);
	if (!f) {
		if (errno == ENOENT && create) {
			t->dirty = true;
			return;
		}
		exit(tool_error("%s: %s", t->path, strerror(errno)));
	}
	if (fstat(fileno(f), &st) < 0 || st.st_size != VARSTORE_REGION_SIZE)
		exit(tool_error("%s: a variable store is %u bytes, this file has %lld", t->path,
				VARSTORE_REGION_SIZE, (long long)st.st_size));
	if (fread(t->bytes, 1, VARSTORE_REGION_SIZE, f) != VARSTORE_REGION_SIZE)
		exit(tool_error("%s: cannot read it", t->path));
	fclose(f);
}

static void mount(struct tool_store *t, UINT32 flags)
{
	UINTN size = var_service_mem_size(VARSTORE_REGION_SIZE);
	EFI_STATUS status;

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
	if (t->svc.nv.report.formatted)
		t->dirty = true;
	if (t->svc.nv.report.damaged)
		fprintf(stderr, "ember-varstore: %s: %u damaged record(s) skipped\n", t->path,
			t->svc.nv.report.damaged);
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
	memset(t, 0, sizeof(*t));
	t->path = path;
	t->bytes = malloc(VARSTORE_REGION_SIZE);
	if (!t->bytes)
		exit(tool_error("out of memory"));
	memset(t->bytes, 0xff, VARSTORE_REGION_SIZE);
	mount(t, 0);
	t->dirty = true;
}

int store_close(struct tool_store *t)
{
	size_t n = strlen(t->path) + 16;
	char *tmp = malloc(n);
	FILE *f;
	int status = 0;

	if (t->dirty && tmp) {
		snprintf(tmp, n, "%s.tmp", t->path);
		f = fopen(tmp, "wb");
		if (!f || fwrite(t->bytes, 1, VARSTORE_REGION_SIZE, f) != VARSTORE_REGION_SIZE ||
		    fclose(f) != 0 || rename(tmp, t->path) != 0)
			status = tool_error("%s: cannot write it: %s", t->path, strerror(errno));
	}
	free(tmp);
	free(t->mem);
	free(t->bytes);
	return status;
}
