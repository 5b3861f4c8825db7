/* The boot manager's order of work (bds/bds.c, bds/boot.c): BootNext once, then BootOrder
 * in turn, skipping inactive options and applications; Driver#### and SysPrep#### before;
 * each option's OptionalData as LoadOptions and its number in BootCurrent; the fallback
 * program when nothing boots. Each test runs in its own process on a fresh store. */
#include <stdio.h>
#include <string.h>

#include "bds_fixture.h"
#include "pe_builder.h"
#include "support/test.h"
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/lib/str.h>

static const EFI_GUID global_guid = EFI_GLOBAL_VARIABLE;

/* Two disks: program 1 at \ONE.EFI on the first, program 2 at \TWO.EFI on the second;
 * Boot0001 and Boot0002 name them. */
static void two_options(void)
{
	static const struct bds_file one[] = {{"/ONE.EFI", 1}}, two[] = {{"/TWO.EFI", 2}};
	EFI_DEVICE_PATH_PROTOCOL *a, *b, *pa, *pb;

	bds_world_start();
	bds_disk_add(one, 1, &a);
	bds_disk_add(two, 1, &b);
	pa = bds_file_path(a, "/ONE.EFI");
	pb = bds_file_path(b, "/TWO.EFI");
	bds_option_put(u"Boot", 1, LOAD_OPTION_ACTIVE, u"one", pa, "arg1", 4);
	bds_option_put(u"Boot", 2, LOAD_OPTION_ACTIVE, u"two", pb, NULL, 0);
	pool_free(pa);
	pool_free(pb);
}

static void order_in_turn(void)
{
	static const UINT16 order[] = {2, 1};
	struct bds_platform platform = {0};

	two_options();
	bds_order_put(u"BootOrder", order, 2);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "2,1"));
	ASSERT_EQ(bds_world.run_count, 2);
	EXPECT_EQ(bds_world.runs[0].boot_current, 2);
	EXPECT_EQ(bds_world.runs[1].boot_current, 1);
	/* Boot0001's OptionalData is its program's LoadOptions; Boot0002 has none. */
	EXPECT_EQ(bds_world.runs[1].load_options_size, 4);
	EXPECT(!memcmp(bds_world.runs[1].load_options, "arg1", 4));
	EXPECT_EQ(bds_world.runs[0].load_options_size, 0);
}

TEST(bds_boot_order_in_turn)
{
	RUN_ISOLATED(order_in_turn);
}

/* A program that returns, even with EFI_SUCCESS, leads to the next option (UEFI 2.10,
 * 3.1.1: Ember has no interactive mode to return to). */
static void success_goes_on(void)
{
	static const UINT16 order[] = {1, 2};
	struct bds_platform platform = {0};

	two_options();
	bds_world.status_of[1] = EFI_SUCCESS;
	bds_order_put(u"BootOrder", order, 2);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
}

TEST(bds_boot_success_goes_on)
{
	RUN_ISOLATED(success_goes_on);
}

static void boot_next_once(void)
{
	static const UINT16 order[] = {2};
	UINT16 next = 1;
	UINTN size = sizeof(next);
	struct bds_platform platform = {0};

	two_options();
	bds_order_put(u"BootOrder", order, 1);
	ASSERT_STATUS(variable_set(u"BootNext", &global_guid,
				   EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |
				       EFI_VARIABLE_RUNTIME_ACCESS,
				   sizeof(next), &next),
		      EFI_SUCCESS);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
	/* Used once: gone before the option started. */
	EXPECT_STATUS(variable_get(u"BootNext", &global_guid, NULL, &size, &next), EFI_NOT_FOUND);
	bds_world.run_count = 0;
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "2"));
}

TEST(bds_boot_next_once)
{
	RUN_ISOLATED(boot_next_once);
}

/* Inactive options and applications (category APP) do not boot from BootOrder; options
 * that are missing (Boot0006) or whose file is gone are skipped. */
static void skipped_options(void)
{
	static const UINT16 order[] = {3, 1, 4, 5, 6, 2};
	static const struct bds_file gone[] = {{"/THERE.EFI", 7}};
	struct bds_platform platform = {0};
	EFI_DEVICE_PATH_PROTOCOL *disk, *missing;

	two_options();
	bds_disk_add(gone, 1, &disk);
	missing = bds_file_path(disk, "/NOT-THERE.EFI");
	bds_option_put(u"Boot", 3, 0, u"inactive", missing, NULL, 0);
	bds_option_put(u"Boot", 4, LOAD_OPTION_ACTIVE | LOAD_OPTION_CATEGORY_APP, u"app", missing,
		       NULL, 0);
	bds_option_put(u"Boot", 5, LOAD_OPTION_ACTIVE, u"missing file", missing, NULL, 0);
	pool_free(missing);
	bds_order_put(u"BootOrder", order, 6);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "1,2"));
}

TEST(bds_boot_skips_inactive_apps_and_broken)
{
	RUN_ISOLATED(skipped_options);
}

/* Driver#### (DriverOrder) and SysPrep#### (SysPrepOrder) run before any boot option;
 * inactive ones do not. */
static void drivers_and_sysprep(void)
{
	static const struct bds_file files[] = {
	    {"/DRV.EFI", 3}, {"/DRV2.EFI", 4}, {"/PREP.EFI", 5}, {"/PREP2.EFI", 6}};
	static const UINT16 order[] = {1}, drivers[] = {0, 1, 9}, preps[] = {0, 1};
	struct bds_platform platform = {0};
	EFI_DEVICE_PATH_PROTOCOL *disk, *p;

	two_options();
	bds_disk_add(files, 4, &disk);
	p = bds_file_path(disk, "/DRV.EFI");
	bds_option_put(u"Driver", 0, LOAD_OPTION_ACTIVE | LOAD_OPTION_FORCE_RECONNECT, u"drv", p,
		       NULL, 0);
	pool_free(p);
	p = bds_file_path(disk, "/DRV2.EFI");
	bds_option_put(u"Driver", 1, 0, u"inactive drv", p, NULL, 0);
	pool_free(p);
	p = bds_file_path(disk, "/PREP.EFI");
	bds_option_put(u"SysPrep", 0, LOAD_OPTION_ACTIVE, u"prep", p, NULL, 0);
	pool_free(p);
	p = bds_file_path(disk, "/PREP2.EFI");
	bds_option_put(u"SysPrep", 1, 0, u"inactive prep", p, NULL, 0);
	pool_free(p);
	bds_order_put(u"DriverOrder", drivers, 3);
	bds_order_put(u"SysPrepOrder", preps, 2);
	bds_order_put(u"BootOrder", order, 1);
	bds_world.status_of[3] = EFI_SUCCESS;
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "3,5,1"));
}

TEST(bds_boot_driver_and_sysprep_options)
{
	RUN_ISOLATED(drivers_and_sysprep);
}

/* Nothing boots: the platform's fallback program runs, from memory. */
static void fallback(void)
{
	static const UINT16 order[] = {1, 2};
	static UINT8 *image; /* static: reachable for LeakSanitizer at the child's exit */
	struct bds_platform platform = {.fallback_name = u"the shell"};
	size_t size;

	image = bds_program(9, &size);
	platform.fallback_image = image;
	platform.fallback_size = size;
	two_options();
	bds_order_put(u"BootOrder", order, 2);
	bds_run(&platform);
	EXPECT(!strcmp(bds_runs_text(), "1,2,9"));
}

TEST(bds_boot_fallback_last)
{
	RUN_ISOLATED(fallback);
}

/* A fallback the platform makes only when it is needed (the QEMU image unpacks its shell
 * then): made once every option has run, and it runs; none when the platform cannot make
 * it. */
static UINT8 *made_image; /* static: reachable for LeakSanitizer at the child's exit */
static size_t made_size;
static int made_count;
static char runs_when_made[32];

static const void *make_fallback(UINTN *size)
{
	made_count++;
	snprintf(runs_when_made, sizeof(runs_when_made), "%s", bds_runs_text());
	*size = made_size;
	return made_image;
}

static const void *cannot_make(UINTN *size)
{
	*size = 0;
	return NULL;
}

static void fallback_made_when_needed(void)
{
	static const UINT16 order[] = {1, 2};
	struct bds_platform platform = {.fallback_name = u"the shell",
					.fallback_make = make_fallback};
	struct bds_platform none = {.fallback_make = cannot_make};

	made_image = bds_program(9, &made_size);
	two_options();
	bds_order_put(u"BootOrder", order, 2);
	bds_run(&platform);
	EXPECT_EQ(made_count, 1);
	EXPECT(!strcmp(runs_when_made, "1,2"));
	EXPECT(!strcmp(bds_runs_text(), "1,2,9"));
	bds_run(&none);
	EXPECT(!strcmp(bds_runs_text(), "1,2,9,1,2"));
}

TEST(bds_boot_fallback_made_when_needed)
{
	RUN_ISOLATED(fallback_made_when_needed);
}
