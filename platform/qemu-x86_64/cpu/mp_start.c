/* The processors and how an AP is started (docs/design.md, "Multiprocessor"): the list
 * comes from the MADT QEMU provides, the BSP first; an AP is started with INIT then SIPI
 * to a page below 1 MiB (cpu/mp_trampoline.S) each time it runs a procedure, and gets
 * INIT again when it is done, so an idle AP waits for a SIPI as at power-on. INIT needs no wait
 * before the SIPI on QEMU, whose local APIC takes both at once: the BSP waits for the AP's arrival
 * instead and sends the second SIPI only when it is late (the 10 ms and 200 us waits of Intel's
 * sequence are for hardware, and would be virtual time under -icount). At ExitBootServices every AP
 * started gets INIT again, so each waits for the OS's SIPI without running in memory the OS may
 * reuse. */
#define LOG_PREFIX "mp: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include "cpu/interrupts.h"
#include "cpu/io.h"
#include "cpu/mp.h"
#include "cpu/mp_trampoline.h"
#include "pure/madt.h"
#include "reset/layout.h"

#define MSR_APIC_BASE 0x1b
#define APIC_BASE_BSP (1 << 8)
#define LAPIC_ID 0x020
#define LAPIC_ICR_LOW 0x300
#define LAPIC_ICR_HIGH 0x310
#define ICR_INIT 0x4500	   /* INIT, level assert */
#define ICR_STARTUP 0x4600 /* start-up, the vector is the page number */
#define ICR_PENDING (1 << 12)
#define CR4_PCIDE (1 << 17) /* only long mode may set it: the trampoline sets it later */
#define AP_STACK_SIZE (64 * 1024)
#define AP_FAULT_STACK_SIZE (8 * 1024)
#define AP_STACK_PAGES ((AP_STACK_SIZE + 2 * AP_FAULT_STACK_SIZE) / 4096)
#define SIPI_AGAIN_NS 1000000ULL /* 1 ms without arrival: the second SIPI */
#define BELOW_1MIB 0x9ffff	 /* conventional memory ends at 640 KiB */
#define TSS_AVAILABLE_64 0x89ULL
#define TSS_BUSY (2ULL << 40)

struct mp_cpu *mp_cpus[MP_MAX_CPUS];
uint32_t mp_cpu_count;

static uint64_t lapic;	     /* the local APIC's MMIO base */
static uint8_t *trampoline;  /* the page below 1 MiB, NULL until the first start */
static unsigned thread_bits; /* CPUID leaf 0xB's shifts */
static unsigned core_bits;
static EFI_EVENT exit_event;
extern const char mp_trampoline_start[], mp_trampoline_end[];
_Noreturn void mp_ap_main(struct mp_cpu *cpu);

static struct {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed)) bsp_gdtr, bsp_idtr;

static uint32_t lapic_read(uint32_t reg)
{
	return mmio_read32(lapic + reg);
}

static void lapic_ipi(uint32_t apic_id, uint32_t icr)
{
	bool was = read_flags() & FLAGS_IF;

	cpu_cli();
	mmio_write32(lapic + LAPIC_ICR_HIGH, apic_id << 24);
	mmio_write32(lapic + LAPIC_ICR_LOW, icr);
	while (lapic_read(LAPIC_ICR_LOW) & ICR_PENDING)
		__asm__ __volatile__("pause");
	if (was)
		cpu_sti();
}

bool mp_on_bsp(void)
{
	return rdmsr(MSR_APIC_BASE) & APIC_BASE_BSP;
}

int mp_whoami(void)
{
	uint32_t id = lapic_read(LAPIC_ID) >> 24;

	for (uint32_t i = 0; i < mp_cpu_count; i++)
		if (mp_cpus[i]->apic_id == id)
			return (int)i;
	return -1;
}

/* The installed MADT (through the ACPI 2.0 RSDP's XSDT), with its length; NULL without. */
static const uint8_t *find_madt(size_t *length)
{
	for (UINTN i = 0; i < core_st->NumberOfTableEntries; i++) {
		const EFI_CONFIGURATION_TABLE *t = &core_st->ConfigurationTable[i];
		const uint8_t *rsdp = t->VendorTable, *xsdt;
		uint32_t xsdt_length;

		if (!guid_eq(&t->VendorGuid, &efi_acpi_20_table_guid))
			continue;
		xsdt = (const uint8_t *)(uintptr_t) * (const uint64_t *)(rsdp + 24);
		mem_copy(&xsdt_length, xsdt + 4, 4);
		for (uint32_t off = 36; off + 8 <= xsdt_length; off += 8) {
			uint64_t address;
			const uint8_t *table;

			mem_copy(&address, xsdt + off, 8);
			table = (const uint8_t *)(uintptr_t)address;
			if (mem_cmp(table, "APIC", 4) == 0) {
				*length = *(const uint32_t *)(table + 4);
				return table;
			}
		}
	}
	return NULL;
}

/* CPUID leaf 0xB: the bits of the APIC ID that number threads, then cores. */
static void read_topology(void)
{
	uint32_t a, b, c, d, max;

	cpuid(0, 0, &max, &b, &c, &d);
	if (max < 0xb)
		return;
	cpuid(0xb, 0, &a, &b, &c, &d);
	if (!b)
		return;
	thread_bits = a & 0x1f;
	cpuid(0xb, 1, &a, &b, &c, &d);
	if (b && (a & 0x1f) >= thread_bits)
		core_bits = (a & 0x1f) - thread_bits;
}

EFI_CPU_PHYSICAL_LOCATION mp_location(uint32_t apic_id)
{
	struct cpu_location l = madt_location(apic_id, thread_bits, core_bits);

	return (EFI_CPU_PHYSICAL_LOCATION){l.package, l.core, l.thread};
}

static bool add_cpu(uint32_t apic_id, uint32_t flags)
{
	struct mp_cpu *cpu = pool_alloc(sizeof(*cpu));

	if (!cpu)
		return false;
	cpu->apic_id = apic_id;
	cpu->status_flag = flags | PROCESSOR_ENABLED_BIT | PROCESSOR_HEALTH_STATUS_BIT;
	mp_cpus[mp_cpu_count++] = cpu;
	return true;
}

/* The APs of the MADT after the BSP; an APIC ID xAPIC cannot address is left out. */
static void add_aps(uint32_t bsp_id)
{
	struct madt_cpu found[MP_MAX_CPUS];
	struct madt_result r;
	size_t length;
	const uint8_t *madt = find_madt(&length);

	if (!madt || !madt_cpus(madt, length, found, MP_MAX_CPUS, &r)) {
		log_warn("mp: no valid MADT: the BSP is the only processor\n");
		return;
	}
	if (r.count > MP_MAX_CPUS)
		log_warn("mp: %u processors, only %u are used\n", (unsigned)r.count, MP_MAX_CPUS);
	for (size_t i = 0; i < r.count && i < MP_MAX_CPUS && mp_cpu_count < MP_MAX_CPUS; i++) {
		if (found[i].apic_id == bsp_id)
			continue;
		if (found[i].apic_id > MP_T_MAX_APIC_ID) {
			log_warn("mp: APIC ID %u needs x2APIC, which Ember does not use\n",
				 found[i].apic_id);
			continue;
		}
		if (!add_cpu(found[i].apic_id, 0))
			return;
	}
}

bool mp_discover(void)
{
	uint32_t bsp_id;

	if (mp_cpu_count)
		return true;
	lapic = rdmsr(MSR_APIC_BASE) & ~0xfffULL;
	bsp_id = lapic_read(LAPIC_ID) >> 24;
	__asm__ __volatile__("sgdt %0; sidt %1" : "=m"(bsp_gdtr), "=m"(bsp_idtr));
	read_topology();
	if (!add_cpu(bsp_id, PROCESSOR_AS_BSP_BIT))
		return false;
	add_aps(bsp_id);
	log_debug("%u processors\n", mp_cpu_count);
	return true;
}

/* The OS gets the machine: every AP waits for its SIPI, none runs in boot-services
 * memory (its stack, the trampoline) that the OS reuses. Idle APs already do (each gets
 * INIT when its procedure ends); this stops those still in a non-blocking procedure. */
static void EFIAPI park_aps(EFI_EVENT event, void *context)
{
	for (uint32_t i = 1; i < mp_cpu_count; i++)
		if (mp_cpus[i]->stack_top)
			mp_stop_ap(i);
}

static void fill_trampoline(uint8_t *t, uint64_t base)
{
	uint32_t value;
	uint64_t cr0, cr3, cr4, entry = (uintptr_t)mp_ap_main;

	mem_copy(t, mp_trampoline_start, (size_t)(mp_trampoline_end - mp_trampoline_start));
	__asm__ __volatile__("mov %%cr0, %0; mov %%cr3, %1; mov %%cr4, %2"
			     : "=r"(cr0), "=r"(cr3), "=r"(cr4));
	value = (uint32_t)base + MP_T_GDT;
	mem_copy(t + MP_T_GDTR + 2, &value, 4);
	*(uint32_t *)(t + MP_T_FAR32) += (uint32_t)base;
	*(uint32_t *)(t + MP_T_FAR64) += (uint32_t)base;
	*(uint32_t *)(t + MP_T_CR3) = (uint32_t)cr3;
	*(uint32_t *)(t + MP_T_CR4) = (uint32_t)cr4 & ~CR4_PCIDE;
	*(uint32_t *)(t + MP_T_EFER) = (uint32_t)rdmsr(MSR_EFER) & ~(1U << 10); /* not LMA */
	*(uint32_t *)(t + MP_T_CR0) = (uint32_t)cr0;
	mem_copy(t + MP_T_ENTRY, &entry, 8);
	entry = lapic + LAPIC_ID;
	mem_copy(t + MP_T_LAPIC_ID, &entry, 8);
	mem_set(t + MP_T_CPUS, 0, (MP_T_MAX_APIC_ID + 1) * 8);
}

/* The page APs start in: below 1 MiB (a SIPI vector is a page number), allocated as
 * boot-services code so nothing else takes it while the APs may use it, executable and
 * writable; the page tables' root must lie below 4 GiB for the 32-bit step. */
static bool trampoline_setup(void)
{
	EFI_PHYSICAL_ADDRESS page = BELOW_1MIB;
	uint64_t cr3;
	EFI_STATUS status;

	__asm__ __volatile__("mov %%cr3, %0" : "=r"(cr3));
	if (cr3 >> 32) {
		log_debug("the page tables lie above 4 GiB\n");
		return false;
	}
	status = mem_allocate_pages(AllocateMaxAddress, EfiBootServicesCode, 1, &page);
	if (EFI_ERROR(status)) {
		log_debug("no page below 1 MiB: %r\n", status);
		return false;
	}
	if (mem_protection_enabled())
		mem_protect(page, 1, 0, EFI_MEMORY_RO | EFI_MEMORY_XP);
	status = event_create(EVT_SIGNAL_EXIT_BOOT_SERVICES, TPL_NOTIFY, park_aps, NULL, NULL,
			      &exit_event);
	if (EFI_ERROR(status)) {
		log_debug("no ExitBootServices event: %r\n", status);
		mem_free_pages(page, 1);
		return false;
	}
	trampoline = (uint8_t *)(uintptr_t)page;
	fill_trampoline(trampoline, page);
	return true;
}

static void tss_descriptor(uint64_t *gdt, uint64_t base, uint64_t limit)
{
	gdt[4] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (TSS_AVAILABLE_64 << 40) |
		 (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[5] = base >> 32;
}

/* The AP's stack and fault stacks, and its GDT: the BSP's descriptors and its own TSS. */
static bool ap_prepare(struct mp_cpu *cpu)
{
	EFI_PHYSICAL_ADDRESS stack;

	if (cpu->stack_top)
		return true;
	if (EFI_ERROR(
		mem_allocate_pages(AllocateAnyPages, EfiBootServicesData, AP_STACK_PAGES, &stack)))
		return false;
	mem_copy(cpu->gdt, (const void *)(uintptr_t)bsp_gdtr.base, 4 * 8);
	cpu->tss.ist[IST_DOUBLE_FAULT - 1] = stack + AP_FAULT_STACK_SIZE;
	cpu->tss.ist[IST_PAGE_FAULT - 1] = stack + 2 * AP_FAULT_STACK_SIZE;
	cpu->tss.io_map_base = sizeof(cpu->tss);
	tss_descriptor(cpu->gdt, (uintptr_t)&cpu->tss, sizeof(cpu->tss) - 1);
	cpu->stack_top = stack + EFI_PAGES_TO_SIZE(AP_STACK_PAGES);
	return true;
}

bool mp_start_ap(uint32_t n)
{
	struct mp_cpu *cpu = mp_cpus[n];

	if (!trampoline && !trampoline_setup())
		return false;
	if (!ap_prepare(cpu))
		return false;
	((uint64_t *)(trampoline + MP_T_CPUS))[cpu->apic_id] = (uintptr_t)cpu;
	cpu->sipi_again = false;
	cpu->started_ns = core_time_ns();
	__atomic_store_n(&cpu->state, MP_STARTED, __ATOMIC_RELEASE);
	lapic_ipi(cpu->apic_id, ICR_INIT);
	lapic_ipi(cpu->apic_id, ICR_STARTUP | (uint32_t)((uintptr_t)trampoline >> 12));
	return true;
}

void mp_nudge_ap(uint32_t n, uint64_t now_ns)
{
	struct mp_cpu *cpu = mp_cpus[n];

	if (cpu->sipi_again || __atomic_load_n(&cpu->state, __ATOMIC_ACQUIRE) != MP_STARTED ||
	    now_ns - cpu->started_ns < SIPI_AGAIN_NS)
		return;
	cpu->sipi_again = true;
	lapic_ipi(cpu->apic_id, ICR_STARTUP | (uint32_t)((uintptr_t)trampoline >> 12));
}

void mp_stop_ap(uint32_t n)
{
	lapic_ipi(mp_cpus[n]->apic_id, ICR_INIT);
	__atomic_store_n(&mp_cpus[n]->state, MP_IDLE, __ATOMIC_RELEASE);
}

/* The AP in long mode on its own stack (from the trampoline): its GDT with its TSS, the
 * BSP's IDT, then the procedure; it waits after it for the BSP's INIT. */
_Noreturn void mp_ap_main(struct mp_cpu *cpu)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) gdtr = {sizeof(cpu->gdt) - 1, (uintptr_t)cpu->gdt};

	cpu->gdt[4] &= ~TSS_BUSY; /* ltr of the AP's last start marked it busy */
	__asm__ __volatile__("lgdt %0; lidt %1; ltr %w2" ::"m"(gdtr), "m"(bsp_idtr), "r"(4 * 8)
			     : "memory");
	__atomic_store_n(&cpu->state, MP_RUNNING, __ATOMIC_RELEASE);
	cpu->procedure(cpu->argument);
	__atomic_store_n(&cpu->state, MP_FINISHED, __ATOMIC_RELEASE);
	/* Running until the BSP's INIT, not halted: QEMU leaves an INIT pending on a halted
	 * CPU (only a SIPI or an interrupt wakes it), so the AP would not be back in
	 * wait-for-SIPI. The BSP sends it as soon as it sees the procedure finished. */
	for (;;)
		__asm__ __volatile__("cli; pause");
}
