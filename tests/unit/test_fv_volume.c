/* Firmware volumes in the DXE core (core/fv, core/image/file.c): the
 * EFI_FIRMWARE_VOLUME2_PROTOCOL of a volume written by tools/lib/fv_image.c (GetNextFile,
 * ReadFile, ReadSection into plain and compressed sections, the read-only answers of the
 * write functions), damaged files refused, LoadImage through Fv()/FvFile(), and the
 * dispatcher: drivers in volume order, dependency expressions (met, never met,
 * re-evaluated after each start, BEFORE, SOR), damaged files reported and never run; the
 * images measured into PCR 0 as platform code. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "support/test_platform.h"
#include "fake_tpm.h"
#include "pe_builder.h"
#include "../../drivers/tpm/event_log.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/fv.h>
#include <ember/crypto/authenticode.h>
#include <ember/crypto/hash.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/devpath_node.h>
#include <ember/lib/fv.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/tools/fv_image.h>
#include <efi/protocol/firmware_volume2.h>
#include <efi/protocol/loaded_image.h>
#include <efi/system_table.h>
#include <stddef.h>

#define VOL_SIZE (64 * 1024)

static const EFI_GUID guid_a = EFI_GUID_INIT(0xa0000000, 0, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 1);
static const EFI_GUID guid_b = EFI_GUID_INIT(0xb0000000, 0, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 2);
static const EFI_GUID guid_c = EFI_GUID_INIT(0xc0000000, 0, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 3);
static const EFI_GUID guid_d = EFI_GUID_INIT(0xd0000000, 0, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 4);
static const EFI_GUID vol_name = EFI_GUID_INIT(0x5eeded00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
/* A protocol nothing installs until a test does. */
static const EFI_GUID late_protocol = EFI_GUID_INIT(0x1a7e0000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5);

static uint8_t pe[PEB_FILE_SIZE];

/* The reference image as a boot-services driver whose entry point returns EFI_SUCCESS
 * (xor eax, eax; ret). */
static void build_driver(void)
{
	peb_build(pe);
	peb_put(pe, PEB_OH_SUBSYSTEM, 11, 2);
	pe[peb_file_offset(0x1000)] = 0x31;
	pe[peb_file_offset(0x1000) + 1] = 0xC0;
	pe[peb_file_offset(0x1000) + 2] = 0xC3;
}

/* A driver whose entry point installs late_protocol on a new handle, then returns
 * EFI_SUCCESS (assembled from, Microsoft x64 calling convention):
 *	sub rsp, 0x38
 *	mov rax, [rdx + 0x60]		; SystemTable->BootServices
 *	mov qword ptr [rsp + 0x30], 0	; Handle = NULL
 *	lea rcx, [rsp + 0x30]
 *	lea rdx, [rip + guid]
 *	xor r8d, r8d			; EFI_NATIVE_INTERFACE
 *	xor r9d, r9d			; Interface = NULL
 *	call [rax + 0x80]		; InstallProtocolInterface
 *	add rsp, 0x38
 *	xor eax, eax
 *	ret
 * guid: late_protocol */
static const uint8_t installer_code[] = {
    0x48, 0x83, 0xec, 0x38, 0x48, 0x8b, 0x42, 0x60, 0x48, 0xc7, 0x44, 0x24, 0x30, 0x00, 0x00, 0x00,
    0x00, 0x48, 0x8d, 0x4c, 0x24, 0x30, 0x48, 0x8d, 0x15, 0x13, 0x00, 0x00, 0x00, 0x45, 0x31, 0xc0,
    0x45, 0x31, 0xc9, 0xff, 0x90, 0x80, 0x00, 0x00, 0x00, 0x48, 0x83, 0xc4, 0x38, 0x31, 0xc0, 0xc3,
    0x00, 0x00, 0x7e, 0x1a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05};
static uint8_t installer[PEB_FILE_SIZE];

static void build_installer(void)
{
	_Static_assert(offsetof(EFI_SYSTEM_TABLE, BootServices) == 0x60, "stub's offset");
	_Static_assert(offsetof(EFI_BOOT_SERVICES, InstallProtocolInterface) == 0x80,
		       "stub's offset");
	memcpy(installer, pe, sizeof(pe));
	memcpy(installer + peb_file_offset(0x1000), installer_code, sizeof(installer_code));
}

/* The image the next add() puts in a file. */
static const uint8_t *image = pe;

static void add(uint8_t *vol, const EFI_GUID *name, uint8_t type, const char *ui, bool compress,
		const uint8_t *depex, size_t depex_size)
{
	struct fv_image_file spec = {*name,    type,  image,	  sizeof(pe), ui,
				     compress, depex, depex_size, 1};
	size_t size;
	uint8_t *file = fv_image_make_file(&spec, 0xFF, &size);

	ASSERT(file);
	ASSERT(fv_image_append(vol, VOL_SIZE, file, size) == NULL);
	free(file);
}

/* Published volumes stay in use until the process ends (each test runs in its own). */
static uint8_t *new_volume(void)
{
	static uint8_t vol[VOL_SIZE];

	build_driver();
	fv_image_format(vol, VOL_SIZE, &vol_name);
	return vol;
}

static EFI_FIRMWARE_VOLUME2_PROTOCOL *publish(uint8_t *vol, EFI_HANDLE *handle)
{
	EFI_FIRMWARE_VOLUME2_PROTOCOL *fv = NULL;

	*handle = NULL;
	ASSERT_STATUS(fv_publish(vol, VOL_SIZE, handle), EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(*handle, &efi_firmware_volume2_protocol_guid, (void **)&fv),
		      EFI_SUCCESS);
	return fv;
}

static void protocol_reads(void)
{
	uint8_t *vol = new_volume();
	EFI_FIRMWARE_VOLUME2_PROTOCOL *fv;
	EFI_HANDLE handle;
	EFI_FV_FILETYPE type = EFI_FV_FILETYPE_ALL;
	EFI_FV_FILE_ATTRIBUTES attributes;
	EFI_FV_ATTRIBUTES fv_attributes;
	EFI_GUID name;
	UINTN key = 0, size;
	UINT32 auth;
	VOID *buffer = NULL;
	UINT8 small[8];

	add(vol, &guid_a, EFI_FV_FILETYPE_DRIVER, "Alpha", false, NULL, 0);
	add(vol, &guid_b, EFI_FV_FILETYPE_APPLICATION, "Beta", true, NULL, 0);
	fv = publish(vol, &handle);
	/* Files in order, the pad file that holds the extended header left out. */
	ASSERT_STATUS(fv->GetNextFile(fv, &key, &type, &name, &attributes, &size), EFI_SUCCESS);
	EXPECT(guid_eq(&name, &guid_a));
	EXPECT_EQ(type, EFI_FV_FILETYPE_DRIVER);
	EXPECT(attributes & EFI_FV_FILE_ATTRIB_MEMORY_MAPPED);
	type = EFI_FV_FILETYPE_ALL;
	ASSERT_STATUS(fv->GetNextFile(fv, &key, &type, &name, &attributes, &size), EFI_SUCCESS);
	EXPECT(guid_eq(&name, &guid_b));
	type = EFI_FV_FILETYPE_ALL;
	EXPECT_STATUS(fv->GetNextFile(fv, &key, &type, &name, &attributes, &size), EFI_NOT_FOUND);
	key = 0;
	type = EFI_FV_FILETYPE_APPLICATION;
	ASSERT_STATUS(fv->GetNextFile(fv, &key, &type, &name, &attributes, &size), EFI_SUCCESS);
	EXPECT(guid_eq(&name, &guid_b));
	/* The PE32 section, out of the compressed one too; the UI section's string. */
	ASSERT_STATUS(fv->ReadSection(fv, &guid_b, EFI_SECTION_PE32, 0, &buffer, &size, &auth),
		      EFI_SUCCESS);
	EXPECT_EQ(size, sizeof(pe));
	EXPECT(memcmp(buffer, pe, sizeof(pe)) == 0);
	pool_free(buffer);
	buffer = NULL;
	ASSERT_STATUS(
	    fv->ReadSection(fv, &guid_a, EFI_SECTION_USER_INTERFACE, 0, &buffer, &size, &auth),
	    EFI_SUCCESS);
	EXPECT(size == 12 && memcmp(buffer, u"Alpha", 12) == 0);
	pool_free(buffer);
	buffer = small;
	size = sizeof(small);
	EXPECT_STATUS(fv->ReadSection(fv, &guid_a, EFI_SECTION_PE32, 0, &buffer, &size, &auth),
		      EFI_WARN_BUFFER_TOO_SMALL);
	EXPECT(size == sizeof(pe) && memcmp(small, "MZ", 2) == 0);
	EXPECT_STATUS(fv->ReadSection(fv, &guid_a, EFI_SECTION_PE32, 1, &buffer, &size, &auth),
		      EFI_NOT_FOUND);
	EXPECT_STATUS(fv->ReadSection(fv, &guid_c, EFI_SECTION_PE32, 0, &buffer, &size, &auth),
		      EFI_NOT_FOUND);
	/* ReadFile: the size alone, then the whole file's sections. */
	ASSERT_STATUS(fv->ReadFile(fv, &guid_a, NULL, &size, &type, &attributes, &auth),
		      EFI_SUCCESS);
	EXPECT(size > sizeof(pe) && type == EFI_FV_FILETYPE_DRIVER);
	buffer = NULL;
	ASSERT_STATUS(fv->ReadFile(fv, &guid_a, &buffer, &size, &type, &attributes, &auth),
		      EFI_SUCCESS);
	EXPECT_EQ(((UINT8 *)buffer)[3], EFI_SECTION_PE32);
	pool_free(buffer);
	/* Read-only. */
	ASSERT_STATUS(fv->GetVolumeAttributes(fv, &fv_attributes), EFI_SUCCESS);
	EXPECT(fv_attributes & EFI_FV2_READ_STATUS);
	EXPECT(!(fv_attributes & EFI_FV2_WRITE_STATUS));
	EXPECT_STATUS(fv->SetVolumeAttributes(fv, &fv_attributes), EFI_SUCCESS);
	fv_attributes |= EFI_FV2_WRITE_STATUS;
	EXPECT_STATUS(fv->SetVolumeAttributes(fv, &fv_attributes), EFI_ACCESS_DENIED);
	EXPECT_STATUS(fv->WriteFile(fv, 0, 0, NULL), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(fv->SetInfo(fv, &guid_a, 0, NULL), EFI_WRITE_PROTECTED);
	EXPECT_STATUS(fv->GetInfo(fv, &guid_a, &size, NULL), EFI_UNSUPPORTED);
	/* A damaged file is not handed out. */
	vol[VOL_SIZE / 2] = 0; /* free space is no longer erased: nothing changes there */
	for (UINTN i = 0; i < VOL_SIZE - 16; i++)
		if (!memcmp(vol + i, &guid_a, sizeof(guid_a))) {
			vol[i + 24 + 4 + 0x100] ^= 1;
			break;
		}
	buffer = NULL;
	EXPECT_STATUS(fv->ReadSection(fv, &guid_a, EFI_SECTION_PE32, 0, &buffer, &size, &auth),
		      EFI_DEVICE_ERROR);
	key = 0;
	type = EFI_FV_FILETYPE_ALL;
	ASSERT_STATUS(fv->GetNextFile(fv, &key, &type, &name, &attributes, &size), EFI_SUCCESS);
	EXPECT(guid_eq(&name, &guid_b));
}

TEST(fv_protocol_reads_files_and_sections)
{
	RUN_ISOLATED(protocol_reads);
}

static void load_through_path(void)
{
	uint8_t *vol = new_volume();
	EFI_HANDLE handle, image = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path;
	EFI_LOADED_IMAGE_PROTOCOL *li;

	add(vol, &guid_a, EFI_FV_FILETYPE_APPLICATION, "Alpha", true, NULL, 0);
	publish(vol, &handle);
	EXPECT(fv_handle_is_platform(handle));
	path = dp_from_text(u"Fv(5EEDED00-0001-0002-0304-05060708090A)/"
			    u"FvFile(A0000000-0000-4000-8000-000000000001)");
	ASSERT(path);
	ASSERT_STATUS(image_load(true, core_image_handle, path, NULL, 0, &image, NULL),
		      EFI_SUCCESS);
	ASSERT_STATUS(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li),
		      EFI_SUCCESS);
	EXPECT(li->DeviceHandle == handle);
	EXPECT(li->FilePath && li->FilePath->SubType == MEDIA_PIWG_FW_FILE_DP);
	image_unload(image);
	pool_free(path);
	path = dp_from_text(u"Fv(5EEDED00-0001-0002-0304-05060708090A)/"
			    u"FvFile(C0000000-0000-4000-8000-000000000003)");
	EXPECT_STATUS(image_load(true, core_image_handle, path, NULL, 0, &image, NULL),
		      EFI_NOT_FOUND);
	pool_free(path);
}

TEST(fv_image_loads_through_fv_and_fvfile)
{
	RUN_ISOLATED(load_through_path);
}

static size_t push(uint8_t *p, const EFI_GUID *guid, uint8_t opcode)
{
	p[0] = opcode;
	memcpy(p + 1, guid, 16);
	return 17;
}

/* Where "starting driver NAME" stands in the log, or NULL. */
static const char *started(const char *log, const char *name)
{
	char line[64];

	strcpy(line, "(");
	strcat(line, name);
	strcat(line, ") from the firmware volume");
	return strstr(log, line);
}

static void dispatch_order(void)
{
	uint8_t *vol = new_volume();
	uint8_t late[32], before[32], sor[32], never[32];
	size_t n;
	EFI_HANDLE handle, other = NULL;
	const char *log;

	/* A waits for late_protocol (installed by the test later: the stub drivers install
	 * nothing); B needs it absent; C runs before B; D waits for Schedule(). */
	n = push(late, &late_protocol, EFI_DEP_PUSH);
	late[n++] = EFI_DEP_END;
	add(vol, &guid_a, EFI_FV_FILETYPE_DRIVER, "Waits", false, late, n);
	n = push(never, &late_protocol, EFI_DEP_PUSH);
	never[n++] = EFI_DEP_NOT;
	never[n++] = EFI_DEP_END;
	add(vol, &guid_b, EFI_FV_FILETYPE_DRIVER, "Plain", true, never, n);
	n = push(before, &guid_b, EFI_DEP_BEFORE);
	before[n++] = EFI_DEP_END;
	add(vol, &guid_c, EFI_FV_FILETYPE_DRIVER, "Before", false, before, n);
	sor[0] = EFI_DEP_SOR;
	sor[1] = EFI_DEP_TRUE;
	sor[2] = EFI_DEP_END;
	add(vol, &guid_d, EFI_FV_FILETYPE_DRIVER, "Scheduled", false, sor, 3);
	publish(vol, &handle);
	test_log_capture(LOG_LEVEL_DEBUG);
	EXPECT_EQ(fv_dispatch(), 2);
	log = test_log_text();
	EXPECT(started(log, "Before") && started(log, "Plain") &&
	       started(log, "Before") < started(log, "Plain"));
	EXPECT(!started(log, "Waits") && !started(log, "Scheduled"));
	EXPECT(strstr(log, "its dependencies are never met"));
	EXPECT(strstr(log, "it waits for Schedule()"));
	/* Once the protocol is there, a second dispatch runs the one that waited. */
	ASSERT_STATUS(protocol_install(&other, &late_protocol, NULL), EFI_SUCCESS);
	test_log_capture(LOG_LEVEL_DEBUG);
	EXPECT_EQ(fv_dispatch(), 1);
	log = test_log_text();
	EXPECT(started(log, "Waits") && !started(log, "Plain") && !started(log, "Before"));
	test_log_stop();
}

TEST(fv_dispatch_follows_dependency_expressions)
{
	RUN_ISOLATED(dispatch_order);
}

static void damaged_never_runs(void)
{
	uint8_t *vol = new_volume();
	EFI_HANDLE handle;
	const char *log;

	add(vol, &guid_a, EFI_FV_FILETYPE_DRIVER, "Damaged", false, NULL, 0);
	add(vol, &guid_b, EFI_FV_FILETYPE_DRIVER, "Good", false, NULL, 0);
	for (UINTN i = 0; i < VOL_SIZE - 16; i++)
		if (!memcmp(vol + i, &guid_a, sizeof(guid_a))) {
			vol[i + 24 + 4 + 0x210] ^= 0x80; /* in the code */
			break;
		}
	publish(vol, &handle);
	test_log_capture(LOG_LEVEL_DEBUG);
	EXPECT_EQ(fv_dispatch(), 1);
	log = test_log_text();
	EXPECT(strstr(log, "skipping damaged file A0000000-0000-4000-8000-000000000001: the "
			   "file's data checksum is wrong"));
	EXPECT(!started(log, "Damaged") && started(log, "Good"));
	test_log_stop();
}

TEST(fv_dispatch_skips_damaged_files)
{
	RUN_ISOLATED(damaged_never_runs);
}

/* ---- Measured as platform code (over the fake TPM) ---- */

static struct fake_tpm fake;
static struct tpm_device tpm;

static UINT32 le32(const UINT8 *p)
{
	return (UINT32)p[0] | (UINT32)p[1] << 8 | (UINT32)p[2] << 16 | (UINT32)p[3] << 24;
}

static void measured_into_pcr0(void)
{
	uint8_t *vol = new_volume();
	EFI_HANDLE handle, image = NULL;
	EFI_DEVICE_PATH_PROTOCOL *path;
	struct tcg_log *log;
	UINT32 at, pcr = 99, type = 0, found = 0;
	const UINT8 *sha256 = NULL;
	UINT8 digest[32];

	fake_tpm_init(&fake, false);
	tpm_crb_init(&tpm, &fake.regs);
	ASSERT_STATUS(tpm_start(&tpm), EFI_SUCCESS);
	log = event_log_get();
	ASSERT(log != NULL);
	ASSERT_STATUS(tcg_log_init(log, log->base, log->size, log->banks), EFI_SUCCESS);
	at = log->used;
	add(vol, &guid_a, EFI_FV_FILETYPE_DRIVER, "Alpha", true, NULL, 0);
	publish(vol, &handle);
	path = dp_from_text(u"Fv(5EEDED00-0001-0002-0304-05060708090A)/"
			    u"FvFile(A0000000-0000-4000-8000-000000000001)");
	ASSERT_STATUS(image_load(false, core_image_handle, path, NULL, 0, &image, NULL),
		      EFI_SUCCESS);
	/* The records since: (PCR, type, SHA-1, SHA-256, SHA-512 digests, event). */
	while (at < log->used) {
		const UINT8 *p = log->base + at;
		pcr = le32(p);
		type = le32(p + 4);
		sha256 = p + 12 + 22 + 2;
		p += 12 + 22 + 34 + 66;
		at = (UINT32)(p + 4 + le32(p) - log->base);
		found++;
		if (pcr == 0)
			EXPECT(memcmp(p + 4 + sizeof(UEFI_IMAGE_LOAD_EVENT), path, dp_size(path)) ==
			       0);
	}
	EXPECT_EQ(found, 1); /* no Secure Boot policy in PCR 7 first: nothing from outside */
	EXPECT_EQ(pcr, 0);
	EXPECT_EQ(type, EV_EFI_BOOT_SERVICES_DRIVER);
	ASSERT_STATUS(authenticode_digest(pe, sizeof(pe), HASH_SHA256, digest), EFI_SUCCESS);
	EXPECT(sha256 && memcmp(sha256, digest, 32) == 0);
	pool_free(path);
}

TEST(fv_images_are_measured_into_pcr0)
{
	RUN_ISOLATED(measured_into_pcr0);
}

/* A driver that waits for a protocol runs in the same dispatch once a later file's driver
 * installed it: the expressions are evaluated again after each start. */
static void reevaluated(void)
{
	uint8_t *vol = new_volume();
	uint8_t late[32];
	size_t n = push(late, &late_protocol, EFI_DEP_PUSH);
	EFI_HANDLE handle;
	const char *log;

	late[n++] = EFI_DEP_END;
	build_installer();
	add(vol, &guid_a, EFI_FV_FILETYPE_DRIVER, "Waits", false, late, n);
	image = installer;
	add(vol, &guid_b, EFI_FV_FILETYPE_DRIVER, "Installer", false, NULL, 0);
	image = pe;
	publish(vol, &handle);
	test_log_capture(LOG_LEVEL_DEBUG);
	EXPECT_EQ(fv_dispatch(), 2);
	log = test_log_text();
	EXPECT(started(log, "Installer") && started(log, "Waits") &&
	       started(log, "Installer") < started(log, "Waits"));
	test_log_stop();
}

TEST(fv_dispatch_reevaluates_after_each_start)
{
	RUN_ISOLATED(reevaluated);
}

/* A volume whose header is damaged is reported and not published: no handle, nothing run. */
static void damaged_volume_refused(void)
{
	uint8_t *vol = new_volume();
	EFI_HANDLE handle = NULL;
	UINTN count = 0;
	EFI_HANDLE *handles = NULL;

	add(vol, &guid_a, EFI_FV_FILETYPE_DRIVER, "Alpha", false, NULL, 0);
	vol[44] ^= 1; /* the attributes: the header checksum no longer holds */
	test_log_capture(LOG_LEVEL_WARN);
	EXPECT_STATUS(fv_publish(vol, VOL_SIZE, &handle), EFI_VOLUME_CORRUPTED);
	EXPECT(strstr(test_log_text(), "is refused: the header checksum is wrong"));
	test_log_stop();
	EXPECT(handle == NULL);
	EXPECT_STATUS(handle_locate_buffer(ByProtocol, &efi_firmware_volume2_protocol_guid, NULL,
					   &count, &handles),
		      EFI_NOT_FOUND);
	EXPECT_EQ(fv_dispatch(), 0);
}

TEST(fv_damaged_volume_is_not_published)
{
	RUN_ISOLATED(damaged_volume_refused);
}
