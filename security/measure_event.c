/* The measurement helpers every step of the boot shares (include/ember/drivers/measure_boot.h):
 * actions, separators and variables as PFP 1.05 10.4 lays them out. */
#define LOG_PREFIX "measure: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/measure.h>
#include <ember/drivers/measure_boot.h>
#include <ember/drivers/tcg_events.h>
#include <ember/lib/str.h>

void measure_event(UINT32 pcr, UINT32 type, const void *data, UINTN size, const void *event,
		   UINT32 event_size)
{
	EFI_STATUS status;

	if (!measure_enabled())
		return;
	status = measure_data(pcr, type, data, size, event, event_size);
	if (EFI_ERROR(status))
		log_warn("event 0x%x into PCR %u not measured: %r\n", type, pcr, status);
}

void measure_action(UINT32 pcr, const char *action)
{
	UINT32 length = (UINT32)str8_len(action);

	measure_event(pcr, EV_EFI_ACTION, action, length, action, length);
}

void measure_separator(UINT32 pcr)
{
	static const UINT8 zero[4];

	measure_event(pcr, EV_SEPARATOR, zero, sizeof(zero), zero, sizeof(zero));
}

void measure_variable(UINT32 pcr, UINT32 type, const CHAR16 *name, const EFI_GUID *guid,
		      const void *data, UINTN size, bool data_only)
{
	UINTN name_length = str16_len(name), total;
	UEFI_VARIABLE_DATA *event;
	UINT8 *p;

	if (!measure_enabled())
		return;
	total = sizeof(*event) + name_length * sizeof(CHAR16) + size;
	event = pool_alloc(total);
	if (!event || total > 0xFFFFFFFFu) {
		log_warn("variable %ls (%llu bytes) not measured: no memory\n", name,
			 (unsigned long long)size);
		pool_free(event);
		return;
	}
	event->VariableName = *guid;
	event->UnicodeNameLength = name_length;
	event->VariableDataLength = size;
	p = (UINT8 *)(event + 1);
	mem_copy(p, name, name_length * sizeof(CHAR16));
	if (size)
		mem_copy(p + name_length * sizeof(CHAR16), data, size);
	if (data_only)
		measure_event(pcr, type, data, size, event, (UINT32)total);
	else
		measure_event(pcr, type, event, total, event, (UINT32)total);
	pool_free(event);
}
