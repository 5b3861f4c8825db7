/* The QEMU AArch64 (`virt`) platform's internal interfaces. */
#ifndef QEMU_AARCH64_H
#define QEMU_AARCH64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <efi/types.h>
#include <ember/lib/fdt_pci.h>
#include "../common/fw_cfg.h"

#define READ_SYSREG(name)                                                                          \
	({                                                                                         \
		uint64_t value_;                                                                   \
		__asm__ __volatile__("mrs %0, " #name : "=r"(value_));                             \
		value_;                                                                            \
	})
#define WRITE_SYSREG(name, value)                                                                  \
	__asm__ __volatile__("msr " #name ", %0" : : "r"((uint64_t)(value)) : "memory")
#define ISB() __asm__ __volatile__("isb" : : : "memory")

static inline uint32_t mmio_read32(uint64_t address)
{
	return *(volatile uint32_t *)(uintptr_t)address;
}

static inline void mmio_write32(uint64_t address, uint32_t value)
{
	*(volatile uint32_t *)(uintptr_t)address = value;
}

static inline uint8_t mmio_read8(uint64_t address)
{
	return *(volatile uint8_t *)(uintptr_t)address;
}

static inline void mmio_write8(uint64_t address, uint8_t value)
{
	*(volatile uint8_t *)(uintptr_t)address = value;
}

/* What the device tree (dt.c) says about the machine; the virt machine's addresses until
 * it has been read. */
struct machine {
	uint64_t ram_base, ram_size;
	uint64_t uart_base;
	uint64_t rtc_base;    /* PL031; 0 when absent */
	uint64_t fw_cfg_base; /* 0 when absent */
	uint64_t vars_base;   /* the second pflash bank (variables); 0 when absent */
	uint64_t gicd_base;
	uint64_t gicc_base;	       /* GICv2's CPU interface */
	uint64_t gicr_base, gicr_size; /* GICv3's redistributors */
	uint8_t gic_version;	       /* 2 or 3; 0: none the timer's interrupt can use */
	bool psci_hvc;		       /* PSCI's conduit: hvc, else smc */
	bool psci;		       /* a PSCI node was found */
	uint32_t timer_virq;	       /* the virtual timer's PPI (INTID) */
	bool pcie;		       /* a usable pci-host-ecam-generic node was found */
	struct fdt_pci_host pcie_host;
};
extern struct machine machine;

/* entry.S, main.c */
void aarch64_main(void);
_Noreturn void aarch64_halt(void);

/* dt.c: reads the tree QEMU put at the start of RAM; false when there is none. */
bool dt_read(void);
/* The tree's location and size (reserved in the memory map). */
void dt_location(uint64_t *base, uint64_t *size);

/* mmu.c: the 1:1 map (RAM write-back, everything else device memory). */
void mmu_enable(void);
void mmu_map_ram(uint64_t start, uint64_t end);
/* At ExitBootServices: RAM outside [keep_start, keep_end) writable and executable again. */
void mmu_release_protection(uint64_t keep_start, uint64_t keep_end);

/* exceptions.c */
void exceptions_init(void);
/* The guard page below the firmware's stack: an abort on it is reported as a stack overflow. */
void exceptions_guard_page(uint64_t address);

/* pl011.c: polled output for early messages and fatal reports. */
void pl011_raw_write(const char *s, size_t n);
void panic_printf(const char *fmt, ...);

/* gic.c: the GIC (machine.gic_version), for the boot CPU's private interrupts. */
#define GIC_SPURIOUS_MIN 1020 /* INTIDs 1020-1023: nothing to handle */
/* Enables the distributor and the CPU interface; false (and gic_version 0) when it cannot. */
bool gic_init(void);
void gic_enable_ppi(uint32_t intid, uint8_t priority);
void gic_disable_ppi(uint32_t intid);
/* The pending interrupt's INTID, now active; gic_end with it when handled. */
uint32_t gic_acknowledge(void);
void gic_end(uint32_t intid);

/* timer.c: the generic timer. */
void timer_init(void);
void timer_stop(void);
void timer_irq(void);
/* Calls the core's tick when one is due and the interrupt did not (polled mode). */
void timer_poll(void);

/* psci.c */
void psci_system_off(void);
void psci_system_reset(void);

/* memory.c */
struct core_memory_range;
const struct core_memory_range *memory_ranges(size_t *count);

/* fw_cfg.c: the transport of QEMU's fw_cfg device (../common/fw_cfg.h) on MMIO. */

/* ram_disk.c: opt/ember/disk as a RAM disk. */
void ram_disk_from_fw_cfg(void);

/* pcie.c: the PCIe host bridge as EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL, connected (the PCI bus
 * driver assigns every BAR and bridge window). */
void pcie_init(void);

/* acpi.c: QEMU's ACPI tables as the ACPI 2.0 configuration table, else the device tree as
 * the DTB table. */
void acpi_or_dt_install(void);
/* dt_fixup.c: EFI_DT_FIXUP_PROTOCOL, when the OS gets the device tree. */
void dt_fixup_install(void);

/* boot.c */
void boot_something(void);

/* Linker symbols (core.ld). */
extern char __image_start[], __image_data_start[], __image_end[];
extern char __image_slots_start[], __image_slots_end[];

#endif
