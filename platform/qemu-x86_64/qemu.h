/* The QEMU x86-64 platform's internal interfaces. */
#ifndef QEMU_QEMU_H
#define QEMU_QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>
#include <efi/status.h>
#include <efi/protocol/device_path.h>
#include <stdint.h>
#include "../common/bootorder.h" /* qemu_boot_rank */

/* serial_raw.c: COM1, polled. */
void serial_raw_init(void);
void serial_raw_write(const char *s, size_t n);
/* Formats onto the serial port and the log: for fatal reports and early messages. */
void panic_printf(const char *fmt, ...);

/* entry.c, main.c: from the reset stage to the core, then the boot, step by step. */
void qemu_entry(void);
void qemu_main(void);

/* entry.c */
_Noreturn void qemu_halt(void);

/* chipset.c */
enum machine { MACHINE_UNKNOWN, MACHINE_Q35, MACHINE_I440FX };
extern enum machine chipset_machine;
void chipset_init(void);
bool chipset_ecam(uint64_t *base, uint64_t *size);
uint16_t chipset_pm_base(void);
void chipset_power_off(void);
/* s3_save.c: the FACS whose waking vector a wake from S3 jumps to (tables/acpi.c), and the
 * S3 record written at ExitBootServices (reset/s3.h). */
void s3_save_facs(UINT32 facs);
void s3_save(void);
/* Invalidates the record a previous boot left (at start-up). */
void s3_save_forget(void);

/* clock.c, timer.c, memory.c */
void clock_init(void);
void timer_init(void);
void timer_stop(void);
struct core_memory_range;
const struct core_memory_range *memory_ranges(size_t *count);

/* tpm_measure.c: the code flash and the version into PCR 0 (nothing without a TPM). */
void qemu_measure_firmware(void);
/* Publishes the firmware volume and runs its drivers (boot/volume.c); true when one started,
 * so that controllers are connected again. */
bool qemu_dispatch_volume(void);
/* The SMBIOS structures published under guid at entry_point, into PCR 1. */
void qemu_measure_smbios(const void *structures, UINT32 size, const EFI_GUID *guid,
			 void *entry_point);
/* An fw_cfg file of QEMU's ACPI tables (the loader script, a blob) as QEMU handed it, before
 * the firmware patched it, into PCR 1 when fw_cfg's opt/ember/measure-acpi is "1". */
void qemu_measure_acpi_data(const void *data, UINT32 size);

/* pflash.c: the variable store; false when only RAM could hold it (-bios). */
bool pflash_variables_start(void);
UINT64 pflash_vars_base(void);

/* paging.c */
void paging_protect_null_page(void);
/* Makes the page at address (the one below a stack) not-present, so running into it
 * faults; false when it could not. Remembered until paging_unguard_all. */
bool paging_guard_page(uint64_t address);
/* True when address lies in a guard page (exception reports say "stack overflow"). */
bool paging_is_guard(uint64_t address);
/* Makes the guard pages present again, for the OS (ExitBootServices). */
void paging_unguard_all(void);
/* At ExitBootServices: every present page writable and executable again, except those of
 * [keep_start, keep_end) (the runtime core, whose protection the OS is told about). */
void paging_release_protection(uint64_t keep_start, uint64_t keep_end);
/* Makes read-only pages bind ring 0 (CR0.WP) and turns on no-execute pages (EFER.NXE)
 * when the CPU has them. */
void paging_enable_protection(void);
/* Identity-maps [start, end) (whole GiBs, 2 MiB pages) where the reset code's map ends;
 * false when memory for the tables ran out. */
bool paging_identity_map(uint64_t start, uint64_t end);
/* Maps [start, end) (4 KiB aligned) with 4 KiB pages, splitting its 2 MiB pages with the
 * count tables given (no memory can be allocated yet), and makes them not present; false
 * when the tables were too few. */
bool paging_cold_absent(uint64_t start, uint64_t end, uint64_t (*tables)[512], unsigned count);
/* Makes the pages of [start, end) that paging_cold_absent took present and executable,
 * writable or not. */
void paging_cold_present(uint64_t start, uint64_t end, bool writable);

/* cold.c: the core's cold part (docs/design.md, "The hot and cold split"). Makes its pages
 * not present until it is unpacked (at start-up, once the fault handler is in place). */
void cold_prepare(void);
/* True when address lies in the cold part while it is still packed. */
bool cold_is_absent(uint64_t address);
/* A page fault (error_code, CR2) on the packed cold part: unpacks it and returns true (the
 * faulting instruction runs again); false for any other fault. */
bool cold_fault(uint64_t error_code, uint64_t cr2);
/* Unpacks the cold part now unless it is: for a fault on address, or (0) for
 * ExitBootServices (runtime code may need it, and the OS maps the whole core) and before an
 * exception report. */
void cold_unpack(uint64_t address);

/* boot.c */
void boot_something(void);

/* Linker symbols of the core image (core.ld). */
extern char __core_start[], __core_data_start[], __core_file_end[], __core_end[];
/* scripts/mkfd's map of .data's absolute addresses (platform/qemu-x86_64/core.ld). */
extern char __core_slots_start[], __core_slots_end[];

#endif
