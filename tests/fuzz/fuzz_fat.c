/* Fuzzes the FAT driver (drivers/fat) with outside data: the input is a disk image. It is
 * parsed as a boot sector, then mounted through the same EFI_SIMPLE_FILE_SYSTEM_PROTOCOL
 * and EFI_FILE_PROTOCOL code firmware uses: every directory is walked, every file read,
 * every entry's info fetched; then a few changes are made (create, write, grow, rename,
 * label, delete, in the root and in its directories) and the volume is walked again.
 * Statuses are whatever the image earns; only crashes, sanitizer reports and leaks of
 * handles count as failures. */
#include "fuzz.h"
#include "../unit/support/test_platform.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../drivers/fat/fat_efi.h"
#include "../../drivers/unicode_collation/collation.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define MAX_IMAGE (4u << 20)
#define MAX_DEPTH 6
#define MAX_ENTRIES 400
#define MAX_READ (256u << 10)
#define RW (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE (RW | EFI_FILE_MODE_CREATE)

static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;
static EFI_GUID fs_info_guid = EFI_FILE_SYSTEM_INFO_ID;
static EFI_GUID label_guid = EFI_FILE_SYSTEM_VOLUME_LABEL_ID;

struct image_disk {
	struct fat_disk disk;
	uint8_t *data;
};

static UINT32 entries_left;
static UINT64 read_left;

static EFI_STATUS image_read(struct fat_disk *disk, UINT64 offset, UINTN size, void *buffer)
{
	struct image_disk *d = container_of(disk, struct image_disk, disk);

	if (offset > disk->size || size > disk->size - offset)
		abort(); /* the driver must stay inside the disk it was given */
	memcpy(buffer, d->data + offset, size);
	return EFI_SUCCESS;
}

static EFI_STATUS image_write(struct fat_disk *disk, UINT64 offset, UINTN size, const void *buffer)
{
	struct image_disk *d = container_of(disk, struct image_disk, disk);

	if (offset > disk->size || size > disk->size - offset)
		abort();
	memcpy(d->data + offset, buffer, size);
	return EFI_SUCCESS;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	test_platform_init();
	return 0;
}

static void read_file(EFI_FILE_PROTOCOL *f)
{
	static uint8_t buf[16384];

	while (read_left) {
		UINTN n = sizeof(buf) < read_left ? sizeof(buf) : read_left;

		if (EFI_ERROR(f->Read(f, &n, buf)) || n == 0)
			break;
		read_left -= n;
	}
	f->SetPosition(f, 0xffffffffffffffffULL);
}

static void walk(EFI_FILE_PROTOCOL *dir, int depth)
{
	uint8_t buf[SIZE_OF_EFI_FILE_INFO + 600];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;

	while (entries_left) {
		EFI_FILE_PROTOCOL *child;
		UINTN n = sizeof(buf);

		if (EFI_ERROR(dir->Read(dir, &n, info)) || n == 0)
			return;
		entries_left--;
		if (!str16_cmp(info->FileName, u".") || !str16_cmp(info->FileName, u".."))
			continue;
		if (EFI_ERROR(dir->Open(dir, &child, info->FileName, EFI_FILE_MODE_READ, 0)))
			continue;
		n = sizeof(buf);
		child->GetInfo(child, &file_info_guid, &n, buf);
		if (info->Attribute & EFI_FILE_DIRECTORY) {
			if (depth < MAX_DEPTH)
				walk(child, depth + 1);
		} else {
			read_file(child);
		}
		child->Close(child);
	}
}

static void volume_info(EFI_FILE_PROTOCOL *root)
{
	uint8_t buf[256];
	UINTN n = sizeof(buf);

	root->GetInfo(root, &fs_info_guid, &n, buf);
	n = sizeof(buf);
	root->GetInfo(root, &label_guid, &n, buf);
}

/* Appends to the first file of dir and deletes it, and adds and deletes a file with a long
 * name: where the image is damaged (a chain running into a directory, orphaned long
 * names next to free slots), these are what could spread the damage. */
static void change_inside(EFI_FILE_PROTOCOL *dir)
{
	uint8_t buf[SIZE_OF_EFI_FILE_INFO + 600];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	EFI_FILE_PROTOCOL *f;
	UINTN n;

	for (int i = 0; i < 40; i++) {
		n = sizeof(buf);
		if (EFI_ERROR(dir->Read(dir, &n, info)) || n == 0)
			break;
		if (info->Attribute & EFI_FILE_DIRECTORY)
			continue;
		if (!EFI_ERROR(dir->Open(dir, &f, info->FileName, RW, 0))) {
			n = 3;
			f->SetPosition(f, 0xffffffffffffffffULL);
			f->Write(f, &n, "end");
			f->Delete(f);
		}
		break;
	}
	if (!EFI_ERROR(dir->Open(dir, &f, u"A new name, long enough.txt", CREATE, 0))) {
		n = 5;
		f->Write(f, &n, "added");
		f->Delete(f);
	}
}

/* change_inside() in each directory of the root. */
static void change_directories(EFI_FILE_PROTOCOL *root)
{
	uint8_t buf[SIZE_OF_EFI_FILE_INFO + 600];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	EFI_FILE_PROTOCOL *d;

	root->SetPosition(root, 0);
	for (int i = 0; i < 40; i++) {
		UINTN n = sizeof(buf);

		if (EFI_ERROR(root->Read(root, &n, info)) || n == 0)
			break;
		if (!(info->Attribute & EFI_FILE_DIRECTORY) || info->FileName[0] == u'.')
			continue;
		if (!EFI_ERROR(root->Open(root, &d, info->FileName, RW, 0))) {
			change_inside(d);
			d->Close(d);
		}
	}
}

/* A few changes, as a program writing to an ESP would make. */
static void change(EFI_FILE_PROTOCOL *root)
{
	static uint8_t data[9000];
	EFI_FILE_PROTOCOL *d, *f;
	uint8_t buf[SIZE_OF_EFI_FILE_INFO + 64];
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	UINTN n = sizeof(data);

	if (!EFI_ERROR(root->Open(root, &d, u"Fuzz Directory", CREATE, EFI_FILE_DIRECTORY))) {
		if (!EFI_ERROR(d->Open(d, &f, u"a long file name.txt", CREATE, 0))) {
			memset(data, 'x', sizeof(data));
			f->Write(f, &n, data);
			f->SetPosition(f, 20000);
			n = 10;
			f->Write(f, &n, data);
			n = sizeof(buf);
			if (!EFI_ERROR(f->GetInfo(f, &file_info_guid, &n, info))) {
				info->FileSize = 3000;
				str16_copy(info->FileName, u"\\Renamed.bin");
				info->Size = SIZE_OF_EFI_FILE_INFO + sizeof(u"\\Renamed.bin");
				f->SetInfo(f, &file_info_guid, info->Size, info);
			}
			f->Delete(f);
		}
		d->Delete(d);
	}
	if (!EFI_ERROR(root->Open(root, &f, u"KEEP.TXT", CREATE, 0))) {
		n = 100;
		f->Write(f, &n, data);
		f->Close(f);
	}
	root->SetInfo(root, &label_guid, sizeof(u"FUZZED"), u"FUZZED");
	change_directories(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image_disk d = {{image_read, image_write, NULL, NULL, 0, false}, NULL};
	struct fat_geometry geo;
	struct fat_sfs *sfs;
	EFI_FILE_PROTOCOL *root;

	if (size >= 512)
		fat_bpb_parse(data, size, &geo);
	if (size < 512 || size > MAX_IMAGE)
		return 0;
	d.data = malloc(size);
	memcpy(d.data, data, size);
	d.disk.size = size;
	if (!EFI_ERROR(fat_sfs_create(&d.disk, &collation_english2, &sfs))) {
		if (!EFI_ERROR(sfs->sfs.OpenVolume(&sfs->sfs, &root))) {
			for (int pass = 0; pass < 2; pass++) {
				entries_left = MAX_ENTRIES;
				read_left = MAX_READ;
				volume_info(root);
				walk(root, 0);
				if (pass == 0)
					change(root);
				root->SetPosition(root, 0);
			}
			root->Close(root);
		}
		if (sfs->vol && sfs->vol->handles)
			abort(); /* a handle the walk closed is still counted */
		fat_sfs_destroy(sfs);
	}
	free(d.data);
	return 0;
}
