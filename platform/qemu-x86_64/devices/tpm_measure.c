/* What QEMU's firmware measures itself (PFP 1.05 3.3.4.1, 3.3.4.2, 10.4.2). PCR 0: the code
 * as it sits in the code flash, the reset blob (the last 8 KiB below 4 GiB, which runs first)
 * and the packed core that scripts/mkfd placed below it, each as
 * EV_EFI_PLATFORM_FIRMWARE_BLOB2, then the version (EV_S_CRTM_VERSION: "Ember MAJOR.MINOR"
 * in UCS-2 with its NUL). Where the packed core lies comes from the reset blob's core
 * descriptor, checked to lie inside the code flash. PCR 1: the SMBIOS structures handed to
 * the OS, serials and the like blanked (EV_EFI_HANDOFF_TABLES2) and, when the machine asks, QEMU's
 * ACPI tables (EV_PLATFORM_CONFIG_FLAGS).
 *
 * The blobs' digests are not computed here: scripts/mkfd stored them at build time in a
 * digest record (magic "EMBERDIG") that ends where the packed core starts, and those are
 * extended. Hashing the flash at reset would be done by code in that same flash, so it
 * would add no trust over digests the build stored next to it (a changed flash can change
 * either), while costing ~60 ms of four-bank hashing. A blob the record does not describe
 * (an image made otherwise) is hashed. */
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
#include "tables/fw_cfg.h"
#include "../../common/smbios_filter.h"
#include "reset/layout.h"

#define FOUR_GIB 0x100000000ull
#define RESET_BLOB_SIZE (FOUR_GIB - RESET_BLOB_BASE)
#define CODE_FLASH_BASE (FOUR_GIB - FW_CODE_SIZE)

#define DIGEST_RECORD_HEADER 16
#define DIGEST_ENTRY_SIZE (16 + 20 + 32 + 48 + 64)
#define DIGEST_RECORD_MAX 4

static UINT64 record_base; /* the digest record's flash address, 0 when there is none */

/* Finds the digest record that ends at the packed core's start, core_base: it is
 * 16 + count * DIGEST_ENTRY_SIZE bytes long, with count in its header. */
static void digest_record_find(UINT64 core_base)
{
	for (UINT32 count = 1; count <= DIGEST_RECORD_MAX; count++) {
		UINT64 at = core_base - DIGEST_RECORD_HEADER - count * DIGEST_ENTRY_SIZE;
		const UINT8 *p = (const UINT8 *)(uintptr_t)at;
		UINT32 stored;

		if (at < CODE_FLASH_BASE)
			return;
		mem_copy(&stored, p + 8, sizeof(stored));
		if (mem_cmp(p, "EMBERDIG", 8) == 0 && stored == count) {
			record_base = at;
			return;
		}
	}
}

/* The stored digests of the blob at base (length bytes), per bank bit; false when the
 * record has none. */
static bool stored_digests(UINT64 base, UINT64 length, UINT8 digests[][TPM_DIGEST_MAX])
{
	static const UINT8 sizes[] = {20, 32, 48, 64};
	const UINT8 *p = (const UINT8 *)(uintptr_t)record_base;
	UINT32 count;

	if (!record_base)
		return false;
	mem_copy(&count, p + 8, sizeof(count));
	for (p += DIGEST_RECORD_HEADER; count--; p += DIGEST_ENTRY_SIZE) {
		UINT64 entry_base, entry_length;
		const UINT8 *digest = p + 16;

		mem_copy(&entry_base, p, sizeof(entry_base));
		mem_copy(&entry_length, p + 8, sizeof(entry_length));
		if (entry_base != base || entry_length != length)
			continue;
		mem_set(digests, 0, TPM_BANK_COUNT * TPM_DIGEST_MAX);
		for (UINT32 i = 0; i < ARRAY_SIZE(sizes); digest += sizes[i++])
			mem_copy(digests[i], digest, sizes[i]);
		return true;
	}
	return false;
}

static void measure_blob(const char *description, UINT64 base, UINT64 length)
{
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX];
	UINT8 event[64];
	/* The description's NUL is part of it, as firmware and log readers (tpm2_eventlog)
	 * have it. */
	UINT8 size = (UINT8)(str8_len(description) + 1);
	UEFI_PLATFORM_FIRMWARE_BLOB2_TAIL tail = {base, length};

	event[0] = size;
	mem_copy(event + 1, description, size);
	mem_copy(event + 1 + size, &tail, sizeof(tail));
	if (stored_digests(base, length, digests)) {
		measure_digests(PCR_PLATFORM_CODE, EV_EFI_PLATFORM_FIRMWARE_BLOB2,
				(const UINT8(*)[TPM_DIGEST_MAX])digests, event,
				1 + size + sizeof(tail));
		return;
	}
	log_debug("%s: no stored digest, hashing it\n", description);
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
	if (!packed_core(&core_base, &core_length)) {
		log_warn("no core descriptor in flash: the core is not measured\n");
		core_base = core_length = 0;
	} else {
		digest_record_find(core_base);
	}
	measure_blob("Ember reset", RESET_BLOB_BASE, RESET_BLOB_SIZE);
	if (core_length)
		measure_blob("Ember core", core_base, core_length);
	format_sn(text, sizeof(text), "Ember %u.%u", revision >> 16, revision & 0xFFFF);
	units = utf8_to_ucs2(version, ARRAY_SIZE(version), text, str8_len(text));
	measure_event(PCR_PLATFORM_CODE, EV_S_CRTM_VERSION, version, (units + 1) * sizeof(CHAR16),
		      version, (UINT32)((units + 1) * sizeof(CHAR16)));
}

/* Measures the SMBIOS structures published under guid at entry_point (smbios.c): a copy of
 * them with serial numbers, asset tags, the UUID and the wake-up type blanked (PFP 3.3.4.2:
 * system-unique and self-changing data MUST NOT be measured), so that two machines alike
 * but for their serials give the same PCR 1. Structures that do not parse are not
 * measured. */
void qemu_measure_smbios(const void *structures, UINT32 size, const EFI_GUID *guid,
			 void *entry_point)
{
	static const char description[] = "SmbiosTable";
	UINT8 event[1 + sizeof(description) + sizeof(UINT64) + sizeof(EFI_CONFIGURATION_TABLE)];
	UINT64 count = 1;
	EFI_CONFIGURATION_TABLE table = {*guid, entry_point};
	UINT8 *p = event, *copy;

	if (!measure_enabled())
		return;
	copy = pool_alloc(size);
	if (!copy) {
		log_warn("no memory to measure the SMBIOS structures\n");
		return;
	}
	mem_copy(copy, structures, size);
	if (!smbios_filter(copy, size)) {
		log_warn("SMBIOS structures run past their %u bytes: not measured\n", size);
		goto out;
	}
	/* With its NUL, as for the firmware blobs. */
	*p++ = sizeof(description);
	mem_copy(p, description, sizeof(description));
	p += sizeof(description);
	mem_copy(p, &count, sizeof(count));
	mem_copy(p + sizeof(count), &table, sizeof(table));
	measure_event(PCR_PLATFORM_CONFIG, EV_EFI_HANDOFF_TABLES2, copy, size, event,
		      sizeof(event));
out:
	pool_free(copy);
}

/* Whether QEMU's ACPI tables are measured: only when the machine asks, with the fw_cfg file
 * opt/ember/measure-acpi holding "1". The profile does not ask for them (PFP 3.3.4.2 lists
 * SMBIOS, boot variables, microcode and setup data for PCR 1; ACPI appears only for tables
 * embedded in firmware code, PCR 0), Debian's OVMF measures none, and in four banks they cost
 * ~30 ms of virtual time: QEMU pads etc/acpi/tables to 128 KiB and etc/tpm/log is a 64 KiB
 * zeroed area. Later OVMF measures them; the switch gives the same events for verifiers
 * that predict that OVMF's PCR 1. */
static bool acpi_measured(void)
{
	static int wanted = -1;
	UINT16 select;
	UINT32 size;
	char value = 0;

	if (wanted < 0) {
		if (fw_cfg_find("opt/ember/measure-acpi", &select, &size) && size)
			fw_cfg_read(select, &value, 1);
		wanted = value == '1';
	}
	return wanted;
}

/* QEMU's ACPI tables are the host's description of the machine, not firmware code: platform
 * configuration, so PCR 1 as EV_PLATFORM_CONFIG_FLAGS with the POST code string "ACPI DATA",
 * each fw_cfg file as read (the loader script, then each blob it allocates), before pointers
 * and checksums are patched in: addresses the firmware chose would make the PCR change with
 * the memory map. This is the form of OVMF's fw_cfg ACPI loader, so the same QEMU machine
 * gives the same events on both. */
void qemu_measure_acpi_data(const void *data, UINT32 size)
{
	if (acpi_measured())
		measure_event(PCR_PLATFORM_CONFIG, EV_PLATFORM_CONFIG_FLAGS, data, size,
			      TCG_POST_CODE_ACPI_DATA, sizeof(TCG_POST_CODE_ACPI_DATA) - 1);
}
