/* The FAT driver when the disk fails in the middle of a change: every change an
 * EFI_FILE_PROTOCOL caller can make is run against a disk that breaks at its first,
 * second, third ... write (until the change completes), or whose medium is pulled out
 * there. A failing change must say so, and once the disk works again and the volume is
 * unmounted, fsck.fat -n must find nothing wrong: what was done is undone or finished. A
 * pulled medium cannot be written at all, so fsck may only find the dirty flag and the
 * clusters lost to the change. Also: the volume filling up half-way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "fat_image.h"
#include <ember/core/core.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)
#define MAX_WRITES 400
/* The disk fails from a write on until the change has ended, then works again. */
#define BROKEN EFI_ABORTED

static EFI_GUID file_info_id = EFI_FILE_INFO_ID;
static EFI_GUID label_id = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;
static UINT8 data[8192];

/* The files every change starts from (512-byte clusters, so changes span several):
 * \KEEP.TXT, \DATA.BIN (3000 bytes), \DIR\IN.TXT, \EMPTY, and \FULL whose one cluster
 * has no free slot left. */
static const char base_tree[] =
    "head -c 3000 /dev/urandom > %t && mcopy -i %s %t ::/DATA.BIN && "
    "echo keep > %t && mcopy -i %s %t ::/KEEP.TXT && mmd -i %s ::/DIR ::/EMPTY ::/FULL && "
    "mcopy -i %s %t ::/DIR/IN.TXT && "
    "for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14; do "
    "mcopy -i %s %t ::/FULL/F$i.TXT || exit 1; done";

static EFI_STATUS put(EFI_FILE_PROTOCOL *root, const CHAR16 *name, UINT64 at, UINTN size)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = root->Open(root, &f, (CHAR16 *)name, CREATE, 0);

	if (EFI_ERROR(status))
		return status;
	status = f->SetPosition(f, at);
	if (!EFI_ERROR(status))
		status = f->Write(f, &size, data);
	f->Close(f);
	return status;
}

/* SetInfo(EFI_FILE_INFO) on name with a new size (when size is not ~0) and file name. */
static EFI_STATUS set_info(EFI_FILE_PROTOCOL *root, const CHAR16 *name, UINT64 size,
			   const CHAR16 *new_name)
{
	UINT8 buf[SIZE_OF_EFI_FILE_INFO + 128];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf, *now;
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = root->Open(root, &f, (CHAR16 *)name, RW, 0);

	if (EFI_ERROR(status))
		return status;
	now = test_fs_info(f);
	if (!now) {
		f->Close(f);
		return EFI_DEVICE_ERROR;
	}
	mem_copy(info, now, SIZE_OF_EFI_FILE_INFO);
	pool_free(now);
	if (size != ~0ULL)
		info->FileSize = size;
	str16_copy(info->FileName, new_name);
	info->Size = SIZE_OF_EFI_FILE_INFO + str16_size(new_name);
	status = f->SetInfo(f, &file_info_id, info->Size, info);
	f->Close(f);
	return status;
}

static EFI_STATUS delete (EFI_FILE_PROTOCOL *root, const CHAR16 *name)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = root->Open(root, &f, (CHAR16 *)name, RW, 0);

	if (EFI_ERROR(status))
		return status;
	status = f->Delete(f);
	return status == EFI_WARN_DELETE_FAILURE ? EFI_DEVICE_ERROR : status;
}

static EFI_STATUS create_file(EFI_FILE_PROTOCOL *root)
{
	return put(root, u"A New File With A Long Name.bin", 0, 1500);
}

static EFI_STATUS append(EFI_FILE_PROTOCOL *root)
{
	return put(root, u"DATA.BIN", 3000, 2000);
}

static EFI_STATUS overwrite(EFI_FILE_PROTOCOL *root)
{
	return put(root, u"DATA.BIN", 100, 1000);
}

static EFI_STATUS write_past_end(EFI_FILE_PROTOCOL *root)
{
	return put(root, u"KEEP.TXT", 4000, 10);
}

static EFI_STATUS make_dir(EFI_FILE_PROTOCOL *root)
{
	EFI_FILE_PROTOCOL *d;
	EFI_STATUS status =
	    root->Open(root, &d, u"DIR\\A New Directory", CREATE, EFI_FILE_DIRECTORY);

	if (!EFI_ERROR(status))
		d->Close(d);
	return status;
}

static EFI_STATUS grow_dir(EFI_FILE_PROTOCOL *root)
{
	return put(root, u"FULL\\One more, with a long name.txt", 0, 600);
}

static EFI_STATUS rename_file(EFI_FILE_PROTOCOL *root)
{
	return set_info(root, u"KEEP.TXT", ~0ULL, u"Kept, now with a long name.txt");
}

static EFI_STATUS move_dir(EFI_FILE_PROTOCOL *root)
{
	return set_info(root, u"DIR", ~0ULL, u"\\EMPTY\\Moved Here");
}

static EFI_STATUS extend(EFI_FILE_PROTOCOL *root)
{
	return set_info(root, u"DATA.BIN", 6000, u"DATA.BIN");
}

static EFI_STATUS shrink(EFI_FILE_PROTOCOL *root)
{
	return set_info(root, u"DATA.BIN", 700, u"DATA.BIN");
}

static EFI_STATUS empty(EFI_FILE_PROTOCOL *root)
{
	return set_info(root, u"DATA.BIN", 0, u"DATA.BIN");
}

static EFI_STATUS delete_file(EFI_FILE_PROTOCOL *root)
{
	return delete (root, u"DATA.BIN");
}

static EFI_STATUS delete_dir(EFI_FILE_PROTOCOL *root)
{
	return delete (root, u"EMPTY");
}

static EFI_STATUS set_label(EFI_FILE_PROTOCOL *root)
{
	return root->SetInfo(root, &label_id, sizeof(u"ROLLBACK"), u"ROLLBACK");
}

struct change {
	const char *name;
	EFI_STATUS (*run)(EFI_FILE_PROTOCOL *root);
	/* What fsck.fat may also say when the medium was pulled half-way (phrases, each
	 * NUL-terminated, the list ended by an empty one). */
	const char *interrupted;
	bool fat32; /* run on FAT32 too */
};

/* Between its two entries being written, a renamed file has both names; fsck.fat keeps
 * the first and empties the second. */
#define BOTH_NAMES "share clusters\0Truncating second to 0 bytes\0File size is \0"
/* A moved directory's '..' is written first. */
#define MOVED_DOTS "Invalid '..' entry in the second slot\0"

/* The label is in the root directory and in the boot sector (on FAT32 in its backup
 * too): interrupted, they differ (the list of differing bytes goes on over lines). */
#define LABELS "label \0Auto-copying volume label\0, \0"

static const struct change changes[] = {
    {"create a file", create_file, NULL, true},
    {"append", append, NULL, false},
    {"overwrite", overwrite, NULL, false},
    {"write past the end", write_past_end, NULL, false},
    {"make a directory", make_dir, NULL, true},
    {"grow a directory", grow_dir, NULL, true},
    {"rename", rename_file, BOTH_NAMES, false},
    {"move a directory", move_dir, BOTH_NAMES MOVED_DOTS, true},
    {"extend by SetInfo", extend, NULL, false},
    {"shrink by SetInfo", shrink, NULL, true},
    {"empty by SetInfo", empty, NULL, false},
    {"delete a file", delete_file, NULL, true},
    {"delete a directory", delete_dir, NULL, false},
    {"set the label", set_label, LABELS, true},
};

/* Whether fsck.fat's report holds only what a pulled medium may leave: the dirty flag
 * (and, on FAT32, the boot sector that differs from its backup by that flag), FATs whose
 * copies differ, clusters that no entry names, a chain longer than its file, and what
 * the change itself allows (a rename interrupted shows the file under both names). */
static bool only_interrupted(const char *report, const char *also)
{
	static const char *const allowed[] = {
	    "fsck.fat ",
	    "Dirty bit is set",
	    "Automatically removing dirty bit",
	    "There are differences between boot sector and its backup",
	    "This is mostly harmless",
	    "65:01/00",
	    "Not automatically fixing this",
	    "FATs differ but appear to be intact",
	    "Using first FAT",
	    "Reclaimed ",
	    "Free cluster summary wrong",
	    "Auto-correcting",
	    "Truncating file to",
	    "Leaving filesystem unchanged",
	    "/", /* the name of the file the next lines are about */
	};
	const char *line = report;

	while (*line) {
		const char *end;
		size_t len;
		bool ok;

		while (*line == ' ')
			line++;
		end = strchr(line, '\n');
		len = end ? (size_t)(end - line) : strlen(line);
		ok = len == 0 || (strncmp(line, "File size is ", 13) == 0 &&
				  memmem(line, len, "chain length is >", 17));
		for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]) && !ok; i++)
			ok = strncmp(line, allowed[i], strlen(allowed[i])) == 0;
		for (const char *a = also; a && *a && !ok; a += strlen(a) + 1)
			ok = memmem(line, len, a, strlen(a)) != NULL;
		if (!ok) {
			printf("    unexpected: %.*s\n", (int)len, line);
			return false;
		}
		line += len + (end != NULL);
	}
	return true;
}

/* Runs the change on a copy of base, the disk failing with fault at write n; returns
 * whether the fault was reached. */
static bool run_at(const UINT8 *base, UINT8 *img, size_t size, const struct change *c,
		   EFI_STATUS fault, UINT64 n)
{
	struct test_fs fs;
	EFI_STATUS status;
	bool reached, clean;
	char report[8192];

	memcpy(img, base, size);
	ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
	fs.md.fail = fault == BROKEN ? EFI_DEVICE_ERROR : fault;
	fs.md.fail_after = fs.md.writes + n;
	fs.md.fail_once = fault == EFI_DEVICE_ERROR;
	status = c->run(fs.root);
	reached = fs.md.faults > 0;
	fs.md.fail = EFI_SUCCESS;
	test_fs_close(&fs);
	if (!reached)
		EXPECT_STATUS(status, EFI_SUCCESS); /* the change itself works */
	if (reached && !EFI_ERROR(status)) {
		printf("    %s, write %llu failed (%s): reported success\n", c->name,
		       (unsigned long long)n, fault == EFI_NO_MEDIA ? "pulled" : "error");
		EXPECT(EFI_ERROR(status));
	}
	if (fault != EFI_DEVICE_ERROR && reached) {
		int status = fat_image_fsck(img, size, report, sizeof(report));

		/* Anything found, and the dirty flag must say so. */
		clean = only_interrupted(report, c->interrupted) &&
			(status == 0 || strstr(report, "Dirty bit is set"));
		if (!clean)
			printf("    %s, %s at write %llu:\n%s", c->name,
			       fault == BROKEN ? "disk broken" : "medium pulled",
			       (unsigned long long)n, report);
	} else {
		clean = fat_image_fsck_clean(img, size);
		if (!clean)
			printf("    (%s, write %llu failed)\n", c->name, (unsigned long long)n);
	}
	EXPECT(clean);
	return reached;
}

/* Every change (or, for the big FAT32 images, those that touch what FAT32 has of its own:
 * FSInfo, the backup boot sector, a root in a cluster chain), failing at each write. */
static void inject(const char *mkfs, UINT32 kib, EFI_STATUS fault)
{
	size_t size;
	UINT8 *base = fat_image_mkfs(mkfs, kib, &size), *img = malloc(size);
	bool fat32 = strstr(mkfs, "-F 32") != NULL;

	ASSERT_EQ(fat_image_run(base, size, base_tree, NULL, 0), 0);
	ASSERT(fat_image_fsck_clean(base, size));
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (UINT8)(i * 7 + 1);
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		UINT64 n = 0;

		if (fat32 && !changes[i].fat32)
			continue;
		while (n < MAX_WRITES && run_at(base, img, size, &changes[i], fault, n))
			n++;
		EXPECT(n < MAX_WRITES);
	}
	free(img);
	free(base);
}

TEST(fat_rollback_write_errors_fat12)
{
	inject("-F 12 -s 1", 1440, EFI_DEVICE_ERROR); /* without a label: one is added */
}

TEST(fat_rollback_write_errors_fat16)
{
	inject("-F 16 -s 1 -n ONE", 4096, EFI_DEVICE_ERROR);
}

TEST(fat_rollback_write_errors_fat32)
{
	inject("-F 32 -s 1 -n ONE", 34000, EFI_DEVICE_ERROR);
}

TEST(fat_rollback_disk_broken_fat16)
{
	inject("-F 16 -s 1 -n ONE", 4096, BROKEN);
}

TEST(fat_rollback_medium_pulled_fat16)
{
	inject("-F 16 -s 1", 4096, EFI_NO_MEDIA);
}

TEST(fat_rollback_medium_pulled_fat32)
{
	inject("-F 32 -s 1", 34000, EFI_NO_MEDIA);
}

/* The volume fills up half-way: with 0, 1, 2 or 3 free clusters left, every change either
 * works or says EFI_VOLUME_FULL, and leaves the volume as fsck.fat wants it. */
TEST(fat_rollback_volume_full)
{
	for (UINT32 leave = 0; leave < 4; leave++) {
		size_t size;
		UINT8 *base = fat_image_mkfs("-F 12 -s 1", 1440, &size), *img = malloc(size);
		char fill[256];

		snprintf(
		    fill, sizeof(fill),
		    "free=$(mdir -i %%s :: | sed -n 's/ //g; s/bytesfree//p') && "
		    "head -c $((free - %u * 512)) /dev/zero > %%t && mcopy -i %%s %%t ::/FILL.BIN",
		    leave);
		ASSERT_EQ(fat_image_run(base, size, base_tree, NULL, 0), 0);
		ASSERT_EQ(fat_image_run(base, size, fill, NULL, 0), 0);
		for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
			struct test_fs fs;
			EFI_STATUS status;

			memcpy(img, base, size);
			ASSERT_STATUS(test_fs_open(&fs, img, size), EFI_SUCCESS);
			status = changes[i].run(fs.root);
			test_fs_close(&fs);
			if (status != EFI_SUCCESS && status != EFI_VOLUME_FULL) {
				printf("    %s, %u clusters free: %s\n", changes[i].name, leave,
				       efi_status_name(status));
				EXPECT_STATUS(status, EFI_VOLUME_FULL);
			}
			if (!fat_image_fsck_clean(img, size)) {
				printf("    (%s, %u clusters free)\n", changes[i].name, leave);
				EXPECT(false);
			}
		}
		free(img);
		free(base);
	}
}
