/* bds_fw_cfg_app (bds/fw_cfg_app.c): the opt/ember/app loader both QEMU platforms use,
 * over fake fw_cfg hooks: no file is no boot and no message; a file that is no PE image is
 * reported with LoadImage's reason and ends the attempt with its status; a boot program is
 * started with opt/ember/args (or its own name) as LoadOptions, and its status is the
 * attempt's. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bds_fixture.h"
#include "support/test.h"
#include <ember/core/bds.h>
#include <ember/core/core.h>

struct fake_file {
	const char *name;
	const void *data;
	uint32_t size;
};

static struct fake_file files[2];
static unsigned reports, reads;
static char last_report[128];

static bool fake_find(const char *name, uint16_t *select, uint32_t *size)
{
	for (uint16_t i = 0; i < 2; i++)
		if (files[i].name && !strcmp(files[i].name, name)) {
			*select = i;
			*size = files[i].size;
			return true;
		}
	return false;
}

static void fake_read(uint16_t select, void *buffer, uint32_t size)
{
	reads++;
	memcpy(buffer, files[select].data, size);
}

static void fake_report(const char *fmt, ...)
{
	va_list ap;

	reports++;
	va_start(ap, fmt);
	strncpy(last_report, va_arg(ap, const char *), sizeof(last_report) - 1);
	va_end(ap);
}

static const struct bds_fw_cfg fake = {fake_find, fake_read, fake_report};

TEST(fw_cfg_app_absent_boots_nothing)
{
	EFI_STATUS status = EFI_SUCCESS;

	memset(files, 0, sizeof(files));
	reports = reads = 0;
	files[0] = (struct fake_file){"opt/ember/args", "x.efi -v\n", 9};
	EXPECT(!bds_fw_cfg_app(&fake, &status));
	EXPECT_EQ(reports, 0);
	EXPECT_EQ(reads, 0);
}

TEST(fw_cfg_app_that_is_no_image_is_reported)
{
	static const char junk[64] = "not a PE image";
	EFI_STATUS status = EFI_SUCCESS;

	memset(files, 0, sizeof(files));
	reports = reads = 0;
	files[0] = (struct fake_file){"opt/ember/app", junk, sizeof(junk)};
	EXPECT(bds_fw_cfg_app(&fake, &status));
	EXPECT(EFI_ERROR(status));
	EXPECT_EQ(reports, 1);
	EXPECT_EQ(reads, 1);
	EXPECT(last_report[0] != 0);
}

static bool options_are(const struct bds_run_record *run, const char *ascii)
{
	const CHAR16 *units = (const CHAR16 *)run->load_options;
	size_t n = strlen(ascii);

	if (run->load_options_size != (n + 1) * sizeof(CHAR16))
		return false;
	for (size_t i = 0; i <= n; i++)
		if (units[i] != (CHAR16)(unsigned char)ascii[i])
			return false;
	return true;
}

static void start_with_args(void)
{
	EFI_STATUS status = EFI_SUCCESS;
	size_t size;
	UINT8 *program;

	bds_world_start();
	program = bds_program(7, &size);
	bds_world.status_of[7] = EFI_WARN_UNKNOWN_GLYPH; /* a status no other path gives */
	memset(files, 0, sizeof(files));
	reports = 0;
	files[0] = (struct fake_file){"opt/ember/app", program, (uint32_t)size};
	/* Trailing newlines and NULs are not part of the command line. */
	files[1] = (struct fake_file){"opt/ember/args", "x.efi -v\n\0", 10};
	EXPECT(bds_fw_cfg_app(&fake, &status));
	EXPECT_STATUS(status, EFI_WARN_UNKNOWN_GLYPH);
	ASSERT_EQ(bds_world.run_count, 1);
	EXPECT(options_are(&bds_world.runs[0], "x.efi -v"));
	/* Without opt/ember/args the program gets its own name. */
	files[1] = (struct fake_file){0};
	EXPECT(bds_fw_cfg_app(&fake, &status));
	EXPECT_STATUS(status, EFI_WARN_UNKNOWN_GLYPH);
	ASSERT_EQ(bds_world.run_count, 2);
	EXPECT(options_are(&bds_world.runs[1], "app.efi"));
	EXPECT_EQ(reports, 0);
	free(program);
}

TEST(fw_cfg_app_is_started_with_its_arguments)
{
	RUN_ISOLATED(start_with_args);
}
