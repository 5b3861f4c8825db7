/* fat-bench: timings of the file system the program was loaded from, through
 * EFI_FILE_PROTOCOL only (so it measures whatever firmware runs it).
 *   fat-bench read PATH         sequential read of PATH in 1 MiB requests, best of 3
 *   fat-bench read-pool PATH    the same into a pool buffer instead of whole pages
 *   fat-bench open DIR NAME     Open() of DIR\NAME with DIR not yet open (cold), then the
 *                               mean Open() of every file in DIR (warm)
 * Times come from the TSC, calibrated against Stall(). */
#include "../lib/app.h"
#include "../lib/tsc.h"
#include <efi/protocol/simple_file_system.h>

#define MAX_WORDS 8
#define CHUNK (1u << 20)
#define RUNS 3
#define MAX_NAMES 20000

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
static UINT64 micros(UINT64 ticks)
{
	return app_tsc_hz() ? ticks * 1000000 / app_tsc_hz() : 0;
}

static EFI_FILE_PROTOCOL *own_volume(void)
{
	EFI_LOADED_IMAGE_PROTOCOL *image;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *sfs;
	EFI_FILE_PROTOCOL *root;

	if (EFI_ERROR(app_bs->HandleProtocol(app_image, &loaded_image_guid, (void **)&image)) ||
	    EFI_ERROR(app_bs->HandleProtocol(image->DeviceHandle, &sfs_guid, (void **)&sfs)) ||
	    EFI_ERROR(sfs->OpenVolume(sfs, &root))) {
		app_print("fat-bench: not loaded from a file system\n");
		return NULL;
	}
	return root;
}

static void to_ucs2(const char *s, CHAR16 *out, size_t units)
{
	utf8_to_ucs2(out, units, s, str8_len(s));
	for (CHAR16 *c = out; *c; c++)
		if (*c == u'/')
			*c = u'\\';
}

/* One pass over the file; returns the TSC ticks it took, 0 on failure. */
static UINT64 read_once(EFI_FILE_PROTOCOL *root, CHAR16 *path, void *buf, UINT64 *bytes)
{
	EFI_FILE_PROTOCOL *f;
	UINT64 start, total = 0;
	EFI_STATUS status;

	if (EFI_ERROR(root->Open(root, &f, path, EFI_FILE_MODE_READ, 0)))
		return 0;
	start = app_tsc();
	for (;;) {
		UINTN n = CHUNK;

		status = f->Read(f, &n, buf);
		if (EFI_ERROR(status) || n == 0)
			break;
		total += n;
	}
	start = app_tsc() - start;
	f->Close(f);
	*bytes = total;
	return EFI_ERROR(status) ? 0 : start;
}

/* Reads the file RUNS times into a page-aligned buffer (as a loader reading a kernel
 * has) or a pool buffer (16-byte aligned). */
static EFI_STATUS bench_read(EFI_FILE_PROTOCOL *root, const char *name, bool pool)
{
	EFI_PHYSICAL_ADDRESS pages = 0;
	CHAR16 path[256];
	UINT64 best = 0, bytes = 0;
	void *buf = NULL;

	if (pool)
		buf = app_alloc(CHUNK);
	else if (!EFI_ERROR(
		     app_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, CHUNK / 4096, &pages)))
		buf = (void *)(UINTN)pages;
	if (!buf)
		return EFI_OUT_OF_RESOURCES;
	to_ucs2(name, path, 256);
	for (int i = 0; i < RUNS; i++) {
		UINT64 t = read_once(root, path, buf, &bytes);
		if (!t) {
			app_print("fat-bench: cannot read %s\n", name);
			break;
		}
		if (!best || t < best)
			best = t;
	}
	if (pool)
		app_free(buf);
	else
		app_bs->FreePages(pages, CHUNK / 4096);
	if (!best)
		return EFI_NOT_FOUND;
	app_print("read %s (%s buffer): %llu bytes in %llu us (best of %d): %llu MB/s\n", name,
		  pool ? "pool" : "page-aligned", bytes, micros(best), RUNS,
		  micros(best) ? bytes / micros(best) : 0);
	return EFI_SUCCESS;
}

/* Names of the files in dir, one pool block of MAX_NAMES * 16 units. */
static UINTN list_names(EFI_FILE_PROTOCOL *dir, CHAR16 *names)
{
	UINT8 buffer[1024];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buffer;
	UINTN n = 0;

	dir->SetPosition(dir, 0);
	for (;;) {
		UINTN size = sizeof(buffer);

		if (EFI_ERROR(dir->Read(dir, &size, info)) || size == 0 || n == MAX_NAMES)
			return n;
		if (!(info->Attribute & EFI_FILE_DIRECTORY) && str16_len(info->FileName) < 16)
			str16_copy(names + 16 * n++, info->FileName);
	}
}

static EFI_STATUS bench_open(EFI_FILE_PROTOCOL *root, const char *dir_name, const char *name)
{
	CHAR16 path[512], *names = app_alloc(MAX_NAMES * 16 * sizeof(CHAR16));
	EFI_FILE_PROTOCOL *dir, *f;
	UINT64 cold, warm;
	UINTN count;

	to_ucs2(dir_name, path, 256);
	str16_copy(path + str16_len(path), u"\\");
	to_ucs2(name, path + str16_len(path), 256);
	cold = app_tsc();
	if (!names || EFI_ERROR(root->Open(root, &f, path, EFI_FILE_MODE_READ, 0))) {
		app_print("fat-bench: cannot open %ls\n", path);
		return EFI_NOT_FOUND;
	}
	cold = app_tsc() - cold;
	f->Close(f);
	to_ucs2(dir_name, path, 256);
	if (EFI_ERROR(root->Open(root, &dir, path, EFI_FILE_MODE_READ, 0)))
		return EFI_NOT_FOUND;
	count = list_names(dir, names);
	warm = app_tsc();
	for (UINTN i = 0; i < count; i++) {
		if (EFI_ERROR(dir->Open(dir, &f, names + 16 * i, EFI_FILE_MODE_READ, 0))) {
			app_print("fat-bench: cannot open %ls\n", names + 16 * i);
			return EFI_NOT_FOUND;
		}
		f->Close(f);
	}
	warm = app_tsc() - warm;
	dir->Close(dir);
	app_free(names);
	app_print("open %s\\%s, directory not open before: %llu us\n", dir_name, name,
		  micros(cold));
	app_print("open, each of the %llu files of %s in turn: %llu ns mean\n", (UINT64)count,
		  dir_name, count ? micros(warm * 1000) / count : 0);
	return EFI_SUCCESS;
}

static UINTN split_words(char *line, char **words)
{
	UINTN n = 0;

	for (char *p = line; *p && n < MAX_WORDS;) {
		while (*p == ' ')
			*p++ = 0;
		if (*p)
			words[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	return n;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	char line[512] = "", *w[MAX_WORDS];
	EFI_FILE_PROTOCOL *root;
	EFI_STATUS status = EFI_INVALID_PARAMETER;
	UINTN n;

	app_init(image, st);
	if (!EFI_ERROR(app_bs->HandleProtocol(image, &loaded_image_guid, (void **)&li)) &&
	    li->LoadOptions)
		ucs2_to_utf8(line, sizeof(line), li->LoadOptions,
			     li->LoadOptionsSize / sizeof(CHAR16));
	n = split_words(line, w); /* w[0] is the program's own name */
	root = own_volume();
	if (!root)
		return EFI_NOT_FOUND;
	if (n == 3 && !str8_cmp(w[1], "read"))
		status = bench_read(root, w[2], false);
	else if (n == 3 && !str8_cmp(w[1], "read-pool"))
		status = bench_read(root, w[2], true);
	else if (n == 4 && !str8_cmp(w[1], "open"))
		status = bench_open(root, w[2], w[3]);
	else
		app_print("usage: fat-bench read|read-pool PATH | open DIR NAME\n");
	root->Close(root);
	return status;
}
