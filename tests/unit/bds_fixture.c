/* The boot manager's test world (see bds_fixture.h). Tests may use libc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bds_fixture.h"
#include "../../bds/bds.h"
#include "block_dev.h"
#include "disk_builder.h"
#include "fat_image.h"
#include "pe_builder.h"
#include "support/test.h"
#include "test_varstore.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>

#define PROGRAM_ID_RVA 0x2000 /* .data: the first bytes no relocation touches */

struct bds_world bds_world;

static const EFI_GUID global_guid = EFI_GLOBAL_VARIABLE;
static const EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static struct nor_sim flash; /* the variable service keeps using it */

/* Media and devices live as long as the test's process; kept reachable for LeakSanitizer,
 * which does not look into the firmware's RAM where the core holds them. */
static void *kept[64];
static unsigned kept_count;

static void *keep(void *p)
{
	if (kept_count < 64)
		kept[kept_count++] = p;
	return p;
}

/* Where every boot program's entry point jumps: records the start, returns the status the
 * test chose for that program. */
static EFI_STATUS EFIAPI program_entry(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	struct bds_run_record *r;
	UINTN size = sizeof(UINT16);
	unsigned id;

	if (EFI_ERROR(protocol_get(image, &loaded_image_guid, (void **)&li)))
		return EFI_LOAD_ERROR;
	id = *(const UINT32 *)((const UINT8 *)li->ImageBase + PROGRAM_ID_RVA);
	if (bds_world.run_count == BDS_MAX_RUNS || id >= 32)
		return EFI_ABORTED;
	r = &bds_world.runs[bds_world.run_count++];
	r->id = id;
	r->boot_current = 0xffff;
	variable_get(u"BootCurrent", &global_guid, NULL, &size, &r->boot_current);
	r->load_options_size = li->LoadOptionsSize;
	if (li->LoadOptions)
		memcpy(r->load_options, li->LoadOptions,
		       li->LoadOptionsSize < sizeof(r->load_options) ? li->LoadOptionsSize
								     : sizeof(r->load_options));
	return bds_world.status_of[id];
}

void bds_world_start(void)
{
	nor_init(&flash, VARSTORE_REGION_SIZE, VARSTORE_BLOCK_SIZE);
	ASSERT_STATUS(variables_start(&flash.dev), EFI_SUCCESS);
	test_install_builtin_drivers();
	memset(&bds_world, 0, sizeof(bds_world));
	for (unsigned i = 0; i < 32; i++)
		bds_world.status_of[i] = EFI_NOT_FOUND;
}

UINT8 *bds_program(unsigned id, size_t *size)
{
	UINT8 *pe = calloc(1, PEB_FILE_SIZE);
	size_t code = peb_file_offset(0x1000);
	/* movabs rax, program_entry; jmp rax: the image's arguments pass through unchanged. */
	static const UINT8 jump[] = {0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0};

	peb_build(pe);
	memcpy(pe + code, jump, sizeof(jump));
	peb_put(pe, code + 2, (uint64_t)(uintptr_t)program_entry, 8);
	peb_put(pe, peb_file_offset(PROGRAM_ID_RVA), id, 4);
	*size = PEB_FILE_SIZE;
	return pe;
}

/* mmd for every directory above path (those that exist already fail harmlessly). */
static void make_parents(UINT8 *image, size_t size, const char *path)
{
	char dir[256], cmd[512];

	for (const char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		snprintf(cmd, sizeof(cmd), "mmd -i %%s '::%s' 2>/dev/null", dir);
		fat_image_run(image, size, cmd, NULL, 0);
	}
}

static void put_program(UINT8 *image, size_t size, const struct bds_file *file)
{
	char temp[] = "/tmp/ember-bds-XXXXXX", cmd[512];
	size_t pe_size;
	UINT8 *pe = bds_program(file->id, &pe_size);
	int fd = mkstemp(temp);

	ASSERT(fd >= 0 && write(fd, pe, pe_size) == (ssize_t)pe_size);
	close(fd);
	free(pe);
	make_parents(image, size, file->path);
	snprintf(cmd, sizeof(cmd), "mcopy -i %%s %s '::%s' 2>&1", temp, file->path);
	EXPECT_EQ(fat_image_run(image, size, cmd, NULL, 0), 0);
	unlink(temp);
}

UINT8 *bds_fat_image(const struct bds_file *files, size_t count, size_t *size)
{
	UINT8 *image = fat_image_mkfs("-F 12", 1024, size);

	for (size_t i = 0; i < count; i++)
		put_program(image, *size, &files[i]);
	return image;
}

EFI_HANDLE bds_disk_add(const struct bds_file *files, size_t count, EFI_DEVICE_PATH_PROTOCOL **path)
{
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	size_t size;
	UINT8 *image = keep(bds_fat_image(files, count, &size)); /* the disk's medium */
	struct test_block_dev *disk;

	disk = keep(test_block_dev_create(image, size, 512, 0));
	ASSERT(disk);
	driver_connect(disk->handle, NULL, NULL, true);
	if (path)
		ASSERT_STATUS(protocol_get(disk->handle, &dp_guid, (void **)path), EFI_SUCCESS);
	return disk->handle;
}

EFI_HANDLE bds_gpt_disk_add(const struct bds_file *files, size_t count,
			    EFI_DEVICE_PATH_PROTOCOL **path)
{
	static const EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	static struct mem_disk disk; /* kept: the device's medium */
	struct gpt_part part = {
	    .type = {0xc12a7328, 0xf81f, 0x11d2, {0xba, 0x4b, 0x00, 0xa0, 0xc9, 0x3e, 0xc9, 0x3b}}};
	size_t size;
	UINT8 *fat = fat_image_mkfs("-F 12", 1024, &size);
	struct test_block_dev *dev;
	EFI_HANDLE *handles;
	UINTN n;

	for (size_t i = 0; i < count; i++)
		put_program(fat, size, &files[i]);
	mem_disk_init(&disk, 4096, 512);
	part.first = gpt_first_usable(&disk, 128, 128);
	part.last = part.first + size / 512 - 1;
	gpt_write(&disk, &part, 1, 128, 128);
	memcpy(mem_disk_block(&disk, part.first), fat, size);
	free(fat);
	dev = keep(test_block_dev_create(disk.data, disk.size, 512, 0));
	ASSERT(dev);
	driver_connect(dev->handle, NULL, NULL, true);
	/* The partition is the file system whose path starts with the disk's. */
	ASSERT_STATUS(handle_locate_buffer(ByProtocol, &sfs_guid, NULL, &n, &handles), EFI_SUCCESS);
	for (UINTN i = 0; i < n && path; i++) {
		EFI_DEVICE_PATH_PROTOCOL *p;
		if (!EFI_ERROR(protocol_get(handles[i], &dp_guid, (void **)&p)) &&
		    dp_starts_with(p, (EFI_DEVICE_PATH_PROTOCOL *)&dev->path) &&
		    dp_size(p) > sizeof(dev->path))
			*path = p;
	}
	pool_free(handles);
	return dev->handle;
}

void bds_disk_remove(EFI_HANDLE disk)
{
	static const EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
	EFI_BLOCK_IO_PROTOCOL *bio;

	ASSERT_STATUS(protocol_get(disk, &bio_guid, (void **)&bio), EFI_SUCCESS);
	test_block_dev_destroy(container_of(bio, struct test_block_dev, block_io));
}

EFI_DEVICE_PATH_PROTOCOL *bds_file_path(EFI_DEVICE_PATH_PROTOCOL *disk, const char *file)
{
	CHAR16 name[128];
	EFI_DEVICE_PATH_PROTOCOL *node, *full;
	size_t n = strlen(file);

	for (size_t i = 0; i <= n; i++)
		name[i] = file[i] == '/' ? '\\' : (CHAR16)file[i];
	node = dp_file_path(name);
	full = disk ? dp_append(disk, node) : dp_dup(node);
	pool_free(node);
	return full;
}

void bds_option_put(const CHAR16 *kind, UINT16 number, UINT32 attributes, const CHAR16 *description,
		    const EFI_DEVICE_PATH_PROTOCOL *path, const void *optional, UINTN optional_size)
{
	struct load_option lo = {attributes,   description,	      str16_size(description),
				 path,	       (UINT16)dp_size(path), optional,
				 optional_size};
	UINTN size = load_option_size(&lo);
	void *data = malloc(size);
	CHAR16 name[16];

	load_option_write(&lo, data);
	bds_option_name(name, kind, number);
	ASSERT_STATUS(variable_set(name, &global_guid,
				   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				       EFI_VARIABLE_RUNTIME_ACCESS,
				   size, data),
		      EFI_SUCCESS);
	free(data);
}

void bds_order_put(const CHAR16 *name, const UINT16 *order, UINTN count)
{
	ASSERT_STATUS(variable_set(name, &global_guid,
				   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				       EFI_VARIABLE_RUNTIME_ACCESS,
				   count * sizeof(UINT16), order),
		      EFI_SUCCESS);
}

UINTN bds_order_get(const CHAR16 *name, UINT16 *order, UINTN max)
{
	UINTN size = max * sizeof(UINT16);

	if (EFI_ERROR(variable_get(name, &global_guid, NULL, &size, order)))
		return 0;
	return size / sizeof(UINT16);
}

UINT64 bds_flash_steps(void)
{
	return flash.steps;
}

const char *bds_runs_text(void)
{
	static char text[128];
	size_t used = 0;

	text[0] = 0;
	for (unsigned i = 0; i < bds_world.run_count && used < sizeof(text) - 8; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%u", i ? "," : "",
					 bds_world.runs[i].id);
	return text;
}
