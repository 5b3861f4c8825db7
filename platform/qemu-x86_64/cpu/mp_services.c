/* EFI_MP_SERVICES_PROTOCOL on QEMU (PI 1.8, volume 2, 13.4): each service checks its
 * caller and arguments in the order the statuses are listed, then asks mp_start.c and
 * mp_jobs.c. Installed at start-up, but the processors are found, and APs started, only
 * when a program first calls it: a boot that does not use it costs nothing. SwitchBSP
 * answers EFI_UNSUPPORTED (one of the spec's cases: "switching the BSP is not
 * supported") after its argument checks: the firmware's single thread, its timer
 * interrupt through the BSP's virtual wire and its fault stacks stay on the BSP. */
#define LOG_PREFIX "mp: "
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/lib/guids.h>
#include "cpu/mp.h"

/* The caller runs on the BSP and the processors are known. */
static EFI_STATUS from_bsp(void)
{
	if (!mp_on_bsp())
		return EFI_DEVICE_ERROR;
	return mp_discover() ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

static bool enabled(uint32_t n)
{
	return mp_cpus[n]->status_flag & PROCESSOR_ENABLED_BIT;
}

static EFI_STATUS EFIAPI mp_get_number_of_processors(EFI_MP_SERVICES_PROTOCOL *this, UINTN *number,
						     UINTN *enabled_number)
{
	EFI_STATUS status = from_bsp();

	if (EFI_ERROR(status))
		return status;
	if (!number || !enabled_number)
		return EFI_INVALID_PARAMETER;
	*number = mp_cpu_count;
	*enabled_number = 0;
	for (uint32_t n = 0; n < mp_cpu_count; n++)
		*enabled_number += enabled(n);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI mp_get_processor_info(EFI_MP_SERVICES_PROTOCOL *this, UINTN number,
					       EFI_PROCESSOR_INFORMATION *info)
{
	bool extended = number & CPU_V2_EXTENDED_TOPOLOGY;
	EFI_STATUS status = from_bsp();
	struct mp_cpu *cpu;

	if (EFI_ERROR(status))
		return status;
	if (!info)
		return EFI_INVALID_PARAMETER;
	number &= ~(UINTN)CPU_V2_EXTENDED_TOPOLOGY;
	if (number >= mp_cpu_count)
		return EFI_NOT_FOUND;
	cpu = mp_cpus[number];
	info->ProcessorId = cpu->apic_id;
	info->StatusFlag = cpu->status_flag;
	info->Location = mp_location(cpu->apic_id);
	if (extended) /* a caller without the bit may have a buffer without the field */
		info->ExtendedInformation.Location2 = (EFI_CPU_PHYSICAL_LOCATION2){
		    .Package = info->Location.Package,
		    .Core = info->Location.Core,
		    .Thread = info->Location.Thread,
		};
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI mp_startup_all_aps(EFI_MP_SERVICES_PROTOCOL *this,
					    EFI_AP_PROCEDURE procedure, BOOLEAN single_thread,
					    EFI_EVENT wait_event, UINTN timeout_us, void *argument,
					    UINTN **failed_cpu_list)
{
	EFI_STATUS status = from_bsp();
	uint64_t cpus = 0;

	if (EFI_ERROR(status))
		return status;
	if (!procedure)
		return EFI_INVALID_PARAMETER;
	for (uint32_t n = 1; n < mp_cpu_count; n++) {
		if (!enabled(n))
			continue;
		if (mp_busy(n))
			return EFI_NOT_READY;
		cpus |= 1ULL << n;
	}
	if (!cpus)
		return EFI_NOT_STARTED;
	if (wait_event && !event_is_valid(wait_event))
		return EFI_INVALID_PARAMETER;
	return mp_job_run(cpus, procedure, argument, single_thread, wait_event, timeout_us,
			  failed_cpu_list, NULL);
}

static EFI_STATUS EFIAPI mp_startup_this_ap(EFI_MP_SERVICES_PROTOCOL *this,
					    EFI_AP_PROCEDURE procedure, UINTN number,
					    EFI_EVENT wait_event, UINTN timeout_us, void *argument,
					    BOOLEAN *finished)
{
	EFI_STATUS status = from_bsp();

	if (EFI_ERROR(status))
		return status;
	if (number >= mp_cpu_count)
		return EFI_NOT_FOUND;
	if (number == 0 || !enabled((uint32_t)number) || !procedure)
		return EFI_INVALID_PARAMETER;
	if (mp_busy((uint32_t)number))
		return EFI_NOT_READY;
	if (wait_event && !event_is_valid(wait_event))
		return EFI_INVALID_PARAMETER;
	return mp_job_run(1ULL << number, procedure, argument, false, wait_event, timeout_us, NULL,
			  wait_event ? finished : NULL);
}

static EFI_STATUS EFIAPI mp_switch_bsp(EFI_MP_SERVICES_PROTOCOL *this, UINTN number,
				       BOOLEAN enable_old_bsp)
{
	EFI_STATUS status = from_bsp();

	if (EFI_ERROR(status))
		return status;
	if (number >= mp_cpu_count)
		return EFI_NOT_FOUND;
	if (number == 0 || !enabled((uint32_t)number))
		return EFI_INVALID_PARAMETER;
	if (mp_busy((uint32_t)number))
		return EFI_NOT_READY;
	return EFI_UNSUPPORTED;
}

static EFI_STATUS EFIAPI mp_enable_disable_ap(EFI_MP_SERVICES_PROTOCOL *this, UINTN number,
					      BOOLEAN enable, UINT32 *health)
{
	EFI_STATUS status = from_bsp();
	struct mp_cpu *cpu;

	if (EFI_ERROR(status))
		return status;
	if (number >= mp_cpu_count)
		return EFI_NOT_FOUND;
	if (number == 0)
		return EFI_INVALID_PARAMETER;
	cpu = mp_cpus[number];
	cpu->status_flag &= ~(UINT32)PROCESSOR_ENABLED_BIT;
	if (enable)
		cpu->status_flag |= PROCESSOR_ENABLED_BIT;
	if (health) {
		cpu->status_flag &= ~(UINT32)PROCESSOR_HEALTH_STATUS_BIT;
		cpu->status_flag |= *health & PROCESSOR_HEALTH_STATUS_BIT;
	}
	return EFI_SUCCESS;
}

/* Also called on APs: only reads what the BSP set up before it started them. */
static EFI_STATUS EFIAPI mp_who_am_i(EFI_MP_SERVICES_PROTOCOL *this, UINTN *number)
{
	int n;

	if (!number)
		return EFI_INVALID_PARAMETER;
	if (mp_on_bsp() && !mp_discover())
		return EFI_OUT_OF_RESOURCES;
	n = mp_whoami();
	if (n < 0)
		return EFI_DEVICE_ERROR;
	*number = (UINTN)n;
	return EFI_SUCCESS;
}

static EFI_MP_SERVICES_PROTOCOL mp_services = {
    mp_get_number_of_processors,
    mp_get_processor_info,
    mp_startup_all_aps,
    mp_startup_this_ap,
    mp_switch_bsp,
    mp_enable_disable_ap,
    mp_who_am_i,
};

static EFI_STATUS mp_services_install(void)
{
	EFI_HANDLE handle = NULL;

	return protocol_install(&handle, &efi_mp_services_protocol_guid, &mp_services);
}
EMBER_INIT(INIT_NORMAL, mp_services_install);
