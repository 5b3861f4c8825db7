/* From an option's file path to full device paths (bds/expand.c, UEFI 2.10 3.1.2): a full
 * path as it is; HD() short forms matched against the partitions there are, with the
 * removable-media file when the option names no file; a lone file path tried on every
 * file system; a path to a device as the removable-media file on it. */
#include <string.h>

#include "bds_fixture.h"
#include "support/test.h"
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>

static const struct bds_file files[] = {{"/EFI/BOOT/BOOTX64.EFI", 1}, {"/APP.EFI", 2}};
static const struct bds_file other[] = {{"/OTHER.EFI", 3}};

/* The last node before End. */
static EFI_DEVICE_PATH_PROTOCOL *last_node(EFI_DEVICE_PATH_PROTOCOL *path)
{
	EFI_DEVICE_PATH_PROTOCOL *node = path, *last = path;

	for (; !dp_is_end(node); node = dp_next(node))
		last = node;
	return last;
}

static void boot_each(EFI_DEVICE_PATH_PROTOCOL **paths, UINT16 count)
{
	struct bds_platform platform = {0};
	UINT16 order[8];

	for (UINT16 i = 0; i < count; i++) {
		bds_option_put(u"Boot", i, LOAD_OPTION_ACTIVE, u"short", paths[i], NULL, 0);
		order[i] = i;
	}
	bds_order_put(u"BootOrder", order, count);
	bds_run(&platform);
}

static void short_forms(void)
{
	EFI_DEVICE_PATH_PROTOCOL *partition, *paths[5], *hd, *app;

	bds_world_start();
	bds_disk_add(other, 1, NULL);
	bds_gpt_disk_add(files, 2, &partition);
	ASSERT(partition);
	hd = dp_append_node(NULL, last_node(partition));
	ASSERT(hd && hd->Type == MEDIA_DEVICE_PATH && hd->SubType == MEDIA_HARDDRIVE_DP);
	app = bds_file_path(NULL, "/APP.EFI");
	paths[0] = dp_append(hd, app);			 /* HD(...)/\APP.EFI */
	paths[1] = dp_dup(hd);				 /* HD(...): the removable file */
	paths[2] = bds_file_path(NULL, "/OTHER.EFI");	 /* a file on any file system */
	paths[3] = bds_file_path(partition, "/APP.EFI"); /* the full path */
	paths[4] = NULL;
	boot_each(paths, 4);
	/* The last one is the default option created for the removable-media file. */
	EXPECT(!strcmp(bds_runs_text(), "2,1,3,2,1"));
	for (int i = 0; i < 4; i++)
		pool_free(paths[i]);
	pool_free(app);
	pool_free(hd);
}

TEST(bds_expand_short_forms)
{
	RUN_ISOLATED(short_forms);
}

/* An HD() node matching no partition (another signature) boots nothing; a path to the
 * disk itself boots the removable-media file of its partition. */
static void device_paths(void)
{
	EFI_DEVICE_PATH_PROTOCOL *partition, *paths[2], *hd;
	EFI_HANDLE disk;
	void *disk_path;
	static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

	bds_world_start();
	disk = bds_gpt_disk_add(files, 2, &partition);
	ASSERT(partition);
	ASSERT_STATUS(protocol_get(disk, &dp_guid, &disk_path), EFI_SUCCESS);
	hd = dp_append_node(NULL, last_node(partition));
	ASSERT(hd);
	((UINT8 *)hd)[dp_node_length(hd) - 3] ^= 0xff; /* another partition signature */
	paths[0] = hd;
	paths[1] = dp_dup(disk_path);
	boot_each(paths, 2);
	EXPECT(!strcmp(bds_runs_text(), "1,1")); /* the disk's path, then the default option */
	pool_free(paths[0]);
	pool_free(paths[1]);
}

TEST(bds_expand_device_paths)
{
	RUN_ISOLATED(device_paths);
}
