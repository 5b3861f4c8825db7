/* What QEMU's firmware measures itself (PFP 1.05 3.3.4.1, 3.3.4.2, 10.4.2). PCR 0: the code
 * as it sits in the code flash, the reset blob (the last 8 KiB below 4 GiB, which runs first)
 * and the packed core that scripts/mkfd placed below it, each as
 * EV_EFI_PLATFORM_FIRMWARE_BLOB2, then the version (EV_S_CRTM_VERSION: "Ember MAJOR.MINOR"
 * in UCS-2 with its NUL). Where the packed core lies comes from the reset blob's core
 * descriptor, checked to lie inside the code flash. PCR 1: the SMBIOS structures handed to
 * the OS (EV_EFI_HANDOFF_TABLES2). */
#define LOG_PREFIX "tpm: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <efi/system_table.h>
#include "qemu.h"
#include "reset/layout.h"

#define FOUR_GIB 0x100000000ull
#define RESET_BLOB_SIZE (FOUR_GIB - RESET_BLOB_BASE)
#define CODE_FLASH_BASE (FOUR_GIB - FW_CODE_SIZE)

static void measure_blob(const char *description, UINT64 base, UINT64 length)
{
	UINT8 event[64];
	/* The description's NUL is part of it, as firmware and log readers (tpm2_eventlog)
	 * have it. */
	UINT8 size = (UINT8)(str8_len(description) + 1);
	UEFI_PLATFORM_FIRMWARE_BLOB2_TAIL tail = {base, length};

	event[0] = size;
	mem_copy(event + 1, description, size);
	mem_copy(event + 1 + size, &tail, sizeof(tail));
	measure_event(PCR_PLATFORM_CODE, EV_EFI_PLATFORM_FIRMWARE_BLOB2,
		      (const void *)(uintptr_t)base, length, event, 1 + size + sizeof(tail));
}

/* The packed core's place in flash, from the descriptor mkfd filled in. */
static bool packed_core(UINT64 *base, UINT64 *length)
{
	const UINT8 *blob = (const UINT8 *)(uintptr_t)RESET_BLOB_BASE;

	for (UINT64 at = 0; at + CORE_DESCRIPTOR_SIZE <= RESET_BLOB_SIZE; at += 8) {
		if (mem_cmp(blob + at, "EMBERCOR", 8) != 0)
			continue;
		mem_copy(base, blob + at + CORE_FLASH, sizeof(*base));
		mem_copy(length, blob + at + CORE_PACKED_SIZE, sizeof(*length));
		return *base >= CODE_FLASH_BASE && *base < RESET_BLOB_BASE &&
		       *length <= RESET_BLOB_BASE - *base;
	}
	return false;
}

/* Measures the code flash and the version into PCR 0 (main.c, once the TPM is started). */
void qemu_measure_firmware(void)
{
	CHAR16 version[32];
	char text[32];
	UINT64 core_base, core_length;
	UINT32 revision = core_st->FirmwareRevision;
	size_t units;

	if (!measure_enabled())
		return;
	measure_blob("Ember reset", RESET_BLOB_BASE, RESET_BLOB_SIZE);
	if (packed_core(&core_base, &core_length))
		measure_blob("Ember core", core_base, core_length);
	else
		log_warn("no core descriptor in flash: the core is not measured\n");
	format_sn(text, sizeof(text), "Ember %u.%u", revision >> 16, revision & 0xFFFF);
	units = utf8_to_ucs2(version, ARRAY_SIZE(version), text, str8_len(text));
	measure_event(PCR_PLATFORM_CODE, EV_S_CRTM_VERSION, version, (units + 1) * sizeof(CHAR16),
		      version, (UINT32)((units + 1) * sizeof(CHAR16)));
}

/* Measures the SMBIOS structures published under guid at entry_point (smbios.c). */
void qemu_measure_smbios(const void *structures, UINT32 size, const EFI_GUID *guid,
			 void *entry_point)
{
	static const char description[] = "SmbiosTable";
	UINT8 event[1 + sizeof(description) + sizeof(UINT64) + sizeof(EFI_CONFIGURATION_TABLE)];
	UINT64 count = 1;
	EFI_CONFIGURATION_TABLE table = {*guid, entry_point};
	UINT8 *p = event;

	/* With its NUL, as for the firmware blobs. */
	*p++ = sizeof(description);
	mem_copy(p, description, sizeof(description));
	p += sizeof(description);
	mem_copy(p, &count, sizeof(count));
	mem_copy(p + sizeof(count), &table, sizeof(table));
	measure_event(PCR_PLATFORM_CONFIG, EV_EFI_HANDOFF_TABLES2, structures, size, event,
		      sizeof(event));
}
