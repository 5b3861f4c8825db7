/* --trace: every boot and runtime service an image calls, with its arguments and result,
 * on the log channel. Images get wrapper tables; the core itself never calls through the
 * tables, so only what programs ask for is shown. */
#include "../services.h"
#include <ember/core/trace.h>
#include <ember/lib/guids.h>
#include <ember/core/log.h>
#include <ember/core/platform.h>
#include <ember/lib/str.h>
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/driver_binding.h>
#include <efi/protocol/graphics_output.h>
#include <efi/protocol/load_file.h>
#include <efi/protocol/simple_file_system.h>
#include <efi/protocol/simple_text_input_ex.h>

static EFI_BOOT_SERVICES trace_bs;
/* In runtime memory, as the real one is: an OS converts the pointer to it with the rest. */
static EFI_RUNTIME_SERVICES *trace_rt;

static void out(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = format_vsn(line, sizeof(line), fmt, ap);
	va_end(ap);
	plat_log_write(line, MIN(n, sizeof(line) - 1));
}

/* A GUID's name for the trace (lib/guids.c); unknown ones in registry format (one static
 * buffer). */
static const char *trace_guid(const EFI_GUID *guid)
{
	static char text[40];

	if (!guid)
		return "NULL";
	if (!mem_is_allocated(guid, sizeof(*guid))) {
		format_sn(text, sizeof(text), "(GUID at 0x%llx)",
			  (unsigned long long)(uintptr_t)guid);
		return text;
	}
	if (guid_name(guid))
		return guid_name(guid);
	guid_to_str(text, guid);
	return text;
}

/* A caller's string, if it lies in allocated memory (tracing must not crash a call). */
static const CHAR16 *safe_name(const CHAR16 *name)
{
	return name && mem_is_allocated(name, sizeof(CHAR16)) ? name : u"?";
}

static const char *memory_type_name(UINT32 type)
{
	static const char *const names[] = {"EfiReservedMemoryType",
					    "EfiLoaderCode",
					    "EfiLoaderData",
					    "EfiBootServicesCode",
					    "EfiBootServicesData",
					    "EfiRuntimeServicesCode",
					    "EfiRuntimeServicesData",
					    "EfiConventionalMemory",
					    "EfiUnusableMemory",
					    "EfiACPIReclaimMemory",
					    "EfiACPIMemoryNVS",
					    "EfiMemoryMappedIO",
					    "EfiMemoryMappedIOPortSpace",
					    "EfiPalCode",
					    "EfiPersistentMemory",
					    "EfiUnacceptedMemoryType"};
	return type < ARRAY_SIZE(names) ? names[type] : "(other type)";
}

static UINT64 ptr(const void *p)
{
	return (UINT64)(uintptr_t)p;
}

#define BS_RESULT(fmt, ...) out("BS." fmt " = %r\n", __VA_ARGS__)
#define RT_RESULT(fmt, ...) out("RT." fmt " = %r\n", __VA_ARGS__)

static EFI_TPL EFIAPI t_raise_tpl(EFI_TPL tpl)
{
	EFI_TPL old = efi_raise_tpl(tpl);
	out("BS.RaiseTPL(%llu) = %llu\n", (unsigned long long)tpl, (unsigned long long)old);
	return old;
}

static VOID EFIAPI t_restore_tpl(EFI_TPL tpl)
{
	out("BS.RestoreTPL(%llu)\n", (unsigned long long)tpl);
	efi_restore_tpl(tpl);
}

static EFI_STATUS EFIAPI t_allocate_pages(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE mt, UINTN pages,
					  EFI_PHYSICAL_ADDRESS *memory)
{
	UINT64 in = memory ? *memory : 0;
	EFI_STATUS s = efi_allocate_pages(type, mt, pages, memory);
	BS_RESULT("AllocatePages(%u, %s, %llu, 0x%llx) -> 0x%llx", (unsigned)type,
		  memory_type_name(mt), (unsigned long long)pages, (unsigned long long)in,
		  (unsigned long long)(memory && !EFI_ERROR(s) ? *memory : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_free_pages(EFI_PHYSICAL_ADDRESS memory, UINTN pages)
{
	EFI_STATUS s = efi_free_pages(memory, pages);
	BS_RESULT("FreePages(0x%llx, %llu)", (unsigned long long)memory, (unsigned long long)pages,
		  s);
	return s;
}

static EFI_STATUS EFIAPI t_get_memory_map(UINTN *size, EFI_MEMORY_DESCRIPTOR *map, UINTN *key,
					  UINTN *dsize, UINT32 *dversion)
{
	UINTN in = size ? *size : 0;
	EFI_STATUS s = efi_get_memory_map(size, map, key, dsize, dversion);
	BS_RESULT("GetMemoryMap(%llu, 0x%llx) -> size %llu key %llu", (unsigned long long)in,
		  ptr(map), (unsigned long long)(size ? *size : 0),
		  (unsigned long long)(key && !EFI_ERROR(s) ? *key : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_allocate_pool(EFI_MEMORY_TYPE mt, UINTN size, VOID **buffer)
{
	EFI_STATUS s = efi_allocate_pool(mt, size, buffer);
	BS_RESULT("AllocatePool(%s, %llu) -> 0x%llx", memory_type_name(mt),
		  (unsigned long long)size, ptr(buffer && !EFI_ERROR(s) ? *buffer : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_free_pool(VOID *buffer)
{
	EFI_STATUS s = efi_free_pool(buffer);
	BS_RESULT("FreePool(0x%llx)", ptr(buffer), s);
	return s;
}

static EFI_STATUS EFIAPI t_create_event(UINT32 type, EFI_TPL tpl, EFI_EVENT_NOTIFY fn, VOID *ctx,
					EFI_EVENT *event)
{
	EFI_STATUS s = efi_create_event(type, tpl, fn, ctx, event);
	BS_RESULT("CreateEvent(0x%x, %llu, 0x%llx, 0x%llx) -> 0x%llx", type,
		  (unsigned long long)tpl, ptr((void *)(uintptr_t)fn), ptr(ctx),
		  ptr(event && !EFI_ERROR(s) ? *event : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_set_timer(EFI_EVENT event, EFI_TIMER_DELAY type, UINT64 time)
{
	EFI_STATUS s = efi_set_timer(event, type, time);
	BS_RESULT("SetTimer(0x%llx, %u, %llu)", ptr(event), (unsigned)type,
		  (unsigned long long)time, s);
	return s;
}

static EFI_STATUS EFIAPI t_wait_for_event(UINTN n, EFI_EVENT *events, UINTN *index)
{
	EFI_STATUS s = efi_wait_for_event(n, events, index);
	BS_RESULT("WaitForEvent(%llu, 0x%llx) -> %llu", (unsigned long long)n, ptr(events),
		  (unsigned long long)(index ? *index : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_signal_event(EFI_EVENT event)
{
	EFI_STATUS s = efi_signal_event(event);
	BS_RESULT("SignalEvent(0x%llx)", ptr(event), s);
	return s;
}

static EFI_STATUS EFIAPI t_close_event(EFI_EVENT event)
{
	EFI_STATUS s = efi_close_event(event);
	BS_RESULT("CloseEvent(0x%llx)", ptr(event), s);
	return s;
}

static EFI_STATUS EFIAPI t_check_event(EFI_EVENT event)
{
	EFI_STATUS s = efi_check_event(event);
	BS_RESULT("CheckEvent(0x%llx)", ptr(event), s);
	return s;
}

static EFI_STATUS EFIAPI t_install_protocol_interface(EFI_HANDLE *handle, EFI_GUID *protocol,
						      EFI_INTERFACE_TYPE type, VOID *iface)
{
	EFI_HANDLE in = handle ? *handle : NULL;
	EFI_STATUS s = efi_install_protocol_interface(handle, protocol, type, iface);
	BS_RESULT("InstallProtocolInterface(0x%llx, %s, %u, 0x%llx) -> 0x%llx", ptr(in),
		  trace_guid(protocol), (unsigned)type, ptr(iface), ptr(handle ? *handle : NULL),
		  s);
	return s;
}

static EFI_STATUS EFIAPI t_reinstall_protocol_interface(EFI_HANDLE handle, EFI_GUID *protocol,
							VOID *old_iface, VOID *new_iface)
{
	EFI_STATUS s = efi_reinstall_protocol_interface(handle, protocol, old_iface, new_iface);
	BS_RESULT("ReinstallProtocolInterface(0x%llx, %s, 0x%llx, 0x%llx)", ptr(handle),
		  trace_guid(protocol), ptr(old_iface), ptr(new_iface), s);
	return s;
}

static EFI_STATUS EFIAPI t_uninstall_protocol_interface(EFI_HANDLE handle, EFI_GUID *protocol,
							VOID *iface)
{
	EFI_STATUS s = efi_uninstall_protocol_interface(handle, protocol, iface);
	BS_RESULT("UninstallProtocolInterface(0x%llx, %s, 0x%llx)", ptr(handle),
		  trace_guid(protocol), ptr(iface), s);
	return s;
}

static EFI_STATUS EFIAPI t_handle_protocol(EFI_HANDLE handle, EFI_GUID *protocol, VOID **iface)
{
	EFI_STATUS s = efi_handle_protocol(handle, protocol, iface);
	BS_RESULT("HandleProtocol(0x%llx, %s) -> 0x%llx", ptr(handle), trace_guid(protocol),
		  ptr(iface && !EFI_ERROR(s) ? *iface : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_register_protocol_notify(EFI_GUID *protocol, EFI_EVENT event,
						    VOID **registration)
{
	EFI_STATUS s = efi_register_protocol_notify(protocol, event, registration);
	BS_RESULT("RegisterProtocolNotify(%s, 0x%llx) -> 0x%llx", trace_guid(protocol), ptr(event),
		  ptr(registration && !EFI_ERROR(s) ? *registration : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_locate_handle(EFI_LOCATE_SEARCH_TYPE type, EFI_GUID *protocol, VOID *key,
					 UINTN *size, EFI_HANDLE *buffer)
{
	UINTN in = size ? *size : 0;
	EFI_STATUS s = efi_locate_handle(type, protocol, key, size, buffer);
	BS_RESULT("LocateHandle(%u, %s, 0x%llx, %llu) -> %llu bytes", (unsigned)type,
		  trace_guid(protocol), ptr(key), (unsigned long long)in,
		  (unsigned long long)(size ? *size : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_locate_device_path(EFI_GUID *protocol, EFI_DEVICE_PATH_PROTOCOL **path,
					      EFI_HANDLE *device)
{
	EFI_STATUS s = efi_locate_device_path(protocol, path, device);
	BS_RESULT("LocateDevicePath(%s) -> 0x%llx", trace_guid(protocol),
		  ptr(device && !EFI_ERROR(s) ? *device : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_install_configuration_table(EFI_GUID *guid, VOID *table)
{
	EFI_STATUS s = efi_install_configuration_table(guid, table);
	BS_RESULT("InstallConfigurationTable(%s, 0x%llx)", trace_guid(guid), ptr(table), s);
	return s;
}

static EFI_STATUS EFIAPI t_load_image(BOOLEAN policy, EFI_HANDLE parent,
				      EFI_DEVICE_PATH_PROTOCOL *path, VOID *buffer, UINTN size,
				      EFI_HANDLE *image)
{
	EFI_STATUS s = efi_load_image(policy, parent, path, buffer, size, image);
	BS_RESULT("LoadImage(%u, 0x%llx, 0x%llx, 0x%llx, %llu) -> 0x%llx", policy, ptr(parent),
		  ptr(path), ptr(buffer), (unsigned long long)size,
		  ptr(image && !EFI_ERROR(s) ? *image : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_start_image(EFI_HANDLE image, UINTN *size, CHAR16 **data)
{
	EFI_STATUS s;

	out("BS.StartImage(0x%llx) ...\n", ptr(image));
	s = efi_start_image(image, size, data);
	BS_RESULT("StartImage(0x%llx)", ptr(image), s);
	return s;
}

static EFI_STATUS EFIAPI t_exit(EFI_HANDLE image, EFI_STATUS status, UINTN size, CHAR16 *data)
{
	EFI_STATUS s;

	out("BS.Exit(0x%llx, %r, %llu, 0x%llx)\n", ptr(image), status, (unsigned long long)size,
	    ptr(data));
	s = efi_exit(image, status, size, data);
	BS_RESULT("Exit(0x%llx)", ptr(image), s);
	return s;
}

static EFI_STATUS EFIAPI t_unload_image(EFI_HANDLE image)
{
	EFI_STATUS s = efi_unload_image(image);
	BS_RESULT("UnloadImage(0x%llx)", ptr(image), s);
	return s;
}

static EFI_STATUS EFIAPI t_exit_boot_services(EFI_HANDLE image, UINTN key)
{
	EFI_STATUS s = efi_exit_boot_services(image, key);
	BS_RESULT("ExitBootServices(0x%llx, %llu)", ptr(image), (unsigned long long)key, s);
	return s;
}

static EFI_STATUS EFIAPI t_get_next_monotonic_count(UINT64 *count)
{
	EFI_STATUS s = efi_get_next_monotonic_count(count);
	BS_RESULT("GetNextMonotonicCount() -> %llu",
		  (unsigned long long)(count && !EFI_ERROR(s) ? *count : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_stall(UINTN us)
{
	EFI_STATUS s = efi_stall(us);
	BS_RESULT("Stall(%llu)", (unsigned long long)us, s);
	return s;
}

static EFI_STATUS EFIAPI t_set_watchdog_timer(UINTN timeout, UINT64 code, UINTN size, CHAR16 *data)
{
	EFI_STATUS s = efi_set_watchdog_timer(timeout, code, size, data);
	BS_RESULT("SetWatchdogTimer(%llu, 0x%llx)", (unsigned long long)timeout,
		  (unsigned long long)code, s);
	return s;
}

static EFI_STATUS EFIAPI t_connect_controller(EFI_HANDLE controller, EFI_HANDLE *drivers,
					      EFI_DEVICE_PATH_PROTOCOL *remaining,
					      BOOLEAN recursive)
{
	EFI_STATUS s = efi_connect_controller(controller, drivers, remaining, recursive);
	BS_RESULT("ConnectController(0x%llx, 0x%llx, 0x%llx, %u)", ptr(controller), ptr(drivers),
		  ptr(remaining), recursive, s);
	return s;
}

static EFI_STATUS EFIAPI t_disconnect_controller(EFI_HANDLE controller, EFI_HANDLE driver,
						 EFI_HANDLE child)
{
	EFI_STATUS s = efi_disconnect_controller(controller, driver, child);
	BS_RESULT("DisconnectController(0x%llx, 0x%llx, 0x%llx)", ptr(controller), ptr(driver),
		  ptr(child), s);
	return s;
}

static EFI_STATUS EFIAPI t_open_protocol(EFI_HANDLE handle, EFI_GUID *protocol, VOID **iface,
					 EFI_HANDLE agent, EFI_HANDLE controller, UINT32 attr)
{
	EFI_STATUS s = efi_open_protocol(handle, protocol, iface, agent, controller, attr);
	BS_RESULT("OpenProtocol(0x%llx, %s, agent 0x%llx, controller 0x%llx, 0x%x) -> 0x%llx",
		  ptr(handle), trace_guid(protocol), ptr(agent), ptr(controller), attr,
		  ptr(iface && !EFI_ERROR(s) ? *iface : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_close_protocol(EFI_HANDLE handle, EFI_GUID *protocol, EFI_HANDLE agent,
					  EFI_HANDLE controller)
{
	EFI_STATUS s = efi_close_protocol(handle, protocol, agent, controller);
	BS_RESULT("CloseProtocol(0x%llx, %s, 0x%llx, 0x%llx)", ptr(handle), trace_guid(protocol),
		  ptr(agent), ptr(controller), s);
	return s;
}

static EFI_STATUS EFIAPI t_open_protocol_information(EFI_HANDLE handle, EFI_GUID *protocol,
						     EFI_OPEN_PROTOCOL_INFORMATION_ENTRY **entries,
						     UINTN *count)
{
	EFI_STATUS s = efi_open_protocol_information(handle, protocol, entries, count);
	BS_RESULT("OpenProtocolInformation(0x%llx, %s) -> %llu entries", ptr(handle),
		  trace_guid(protocol), (unsigned long long)(count && !EFI_ERROR(s) ? *count : 0),
		  s);
	return s;
}

static EFI_STATUS EFIAPI t_protocols_per_handle(EFI_HANDLE handle, EFI_GUID ***protocols,
						UINTN *count)
{
	EFI_STATUS s = efi_protocols_per_handle(handle, protocols, count);
	BS_RESULT("ProtocolsPerHandle(0x%llx) -> %llu", ptr(handle),
		  (unsigned long long)(count && !EFI_ERROR(s) ? *count : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_locate_handle_buffer(EFI_LOCATE_SEARCH_TYPE type, EFI_GUID *protocol,
						VOID *key, UINTN *count, EFI_HANDLE **buffer)
{
	EFI_STATUS s = efi_locate_handle_buffer(type, protocol, key, count, buffer);
	BS_RESULT("LocateHandleBuffer(%u, %s, 0x%llx) -> %llu handles", (unsigned)type,
		  trace_guid(protocol), ptr(key),
		  (unsigned long long)(count && !EFI_ERROR(s) ? *count : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_locate_protocol(EFI_GUID *protocol, VOID *registration, VOID **iface)
{
	EFI_STATUS s = efi_locate_protocol(protocol, registration, iface);
	BS_RESULT("LocateProtocol(%s, 0x%llx) -> 0x%llx", trace_guid(protocol), ptr(registration),
		  ptr(iface && !EFI_ERROR(s) ? *iface : NULL), s);
	return s;
}

static void out_pairs(const struct protocol_pair *pairs, UINTN n)
{
	for (UINTN i = 0; i < n; i++)
		out("%s%s 0x%llx", i ? ", " : "", trace_guid(pairs[i].guid),
		    ptr(pairs[i].interface));
}

static EFI_STATUS EFIAPI t_install_multiple(EFI_HANDLE *handle, ...)
{
	struct protocol_pair pairs[MAX_PAIRS];
	EFI_HANDLE in = handle ? *handle : NULL;
	efi_va_list ap;
	EFI_STATUS s;
	UINTN n;
	bool ok;

	efi_va_start(ap, handle);
	ok = COLLECT_PAIRS(ap, efi_va_arg, pairs, n);
	efi_va_end(ap);
	s = !handle || !ok || (*handle && !handle_is_valid(*handle))
		? EFI_INVALID_PARAMETER
		: protocol_install_pairs(handle, pairs, n);
	out("BS.InstallMultipleProtocolInterfaces(0x%llx, ", ptr(in));
	out_pairs(pairs, n);
	out(") -> 0x%llx = %r\n", ptr(handle ? *handle : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_uninstall_multiple(EFI_HANDLE handle, ...)
{
	struct protocol_pair pairs[MAX_PAIRS];
	efi_va_list ap;
	EFI_STATUS s;
	UINTN n;
	bool ok;

	efi_va_start(ap, handle);
	ok = COLLECT_PAIRS(ap, efi_va_arg, pairs, n);
	efi_va_end(ap);
	s = !ok || !handle_is_valid(handle) ? EFI_INVALID_PARAMETER
					    : protocol_uninstall_pairs(handle, pairs, n);
	out("BS.UninstallMultipleProtocolInterfaces(0x%llx, ", ptr(handle));
	out_pairs(pairs, n);
	out(") = %r\n", s);
	return s;
}

static EFI_STATUS EFIAPI t_calculate_crc32(VOID *data, UINTN size, UINT32 *crc)
{
	EFI_STATUS s = efi_calculate_crc32(data, size, crc);
	BS_RESULT("CalculateCrc32(0x%llx, %llu) -> 0x%08x", ptr(data), (unsigned long long)size,
		  crc && !EFI_ERROR(s) ? *crc : 0, s);
	return s;
}

static VOID EFIAPI t_copy_mem(VOID *dst, VOID *src, UINTN n)
{
	out("BS.CopyMem(0x%llx, 0x%llx, %llu)\n", ptr(dst), ptr(src), (unsigned long long)n);
	efi_copy_mem(dst, src, n);
}

static VOID EFIAPI t_set_mem(VOID *buffer, UINTN n, UINT8 value)
{
	out("BS.SetMem(0x%llx, %llu, 0x%02x)\n", ptr(buffer), (unsigned long long)n, value);
	efi_set_mem(buffer, n, value);
}

static EFI_STATUS EFIAPI t_create_event_ex(UINT32 type, EFI_TPL tpl, EFI_EVENT_NOTIFY fn,
					   CONST VOID *ctx, CONST EFI_GUID *group, EFI_EVENT *event)
{
	EFI_STATUS s = efi_create_event_ex(type, tpl, fn, ctx, group, event);
	BS_RESULT("CreateEventEx(0x%x, %llu, 0x%llx, 0x%llx, %s) -> 0x%llx", type,
		  (unsigned long long)tpl, ptr((void *)(uintptr_t)fn), ptr(ctx), trace_guid(group),
		  ptr(event && !EFI_ERROR(s) ? *event : NULL), s);
	return s;
}

/* ---- Runtime services ---- */

static EFI_STATUS EFIAPI t_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *caps)
{
	EFI_STATUS s = efi_get_time(time, caps);
	if (!EFI_ERROR(s))
		RT_RESULT("GetTime() -> %04u-%02u-%02u %02u:%02u:%02u", time->Year, time->Month,
			  time->Day, time->Hour, time->Minute, time->Second, s);
	else
		RT_RESULT("GetTime(0x%llx)", ptr(time), s);
	return s;
}

static EFI_STATUS EFIAPI t_set_time(EFI_TIME *time)
{
	EFI_STATUS s = efi_set_time(time);
	RT_RESULT("SetTime(0x%llx)", ptr(time), s);
	return s;
}

static EFI_STATUS EFIAPI t_get_wakeup_time(BOOLEAN *enabled, BOOLEAN *pending, EFI_TIME *time)
{
	EFI_STATUS s = efi_get_wakeup_time(enabled, pending, time);
	RT_RESULT("GetWakeupTime()%s", "", s);
	return s;
}

static EFI_STATUS EFIAPI t_set_wakeup_time(BOOLEAN enable, EFI_TIME *time)
{
	EFI_STATUS s = efi_set_wakeup_time(enable, time);
	RT_RESULT("SetWakeupTime(%u)", enable, s);
	return s;
}

static EFI_STATUS EFIAPI t_set_virtual_address_map(UINTN size, UINTN dsize, UINT32 version,
						   EFI_MEMORY_DESCRIPTOR *map)
{
	EFI_STATUS s = efi_set_virtual_address_map(size, dsize, version, map);
	RT_RESULT("SetVirtualAddressMap(%llu, %llu, %u, 0x%llx)", (unsigned long long)size,
		  (unsigned long long)dsize, version, ptr(map), s);
	return s;
}

static EFI_STATUS EFIAPI t_convert_pointer(UINTN disposition, VOID **address)
{
	VOID *in = address ? *address : NULL;
	EFI_STATUS s = efi_convert_pointer(disposition, address);
	RT_RESULT("ConvertPointer(%llu, 0x%llx) -> 0x%llx", (unsigned long long)disposition,
		  ptr(in), ptr(address ? *address : NULL), s);
	return s;
}

static EFI_STATUS EFIAPI t_get_variable(CHAR16 *name, EFI_GUID *guid, UINT32 *attributes,
					UINTN *size, VOID *data)
{
	EFI_STATUS s = efi_get_variable(name, guid, attributes, size, data);
	RT_RESULT("GetVariable(\"%ls\", %s) -> %llu bytes", safe_name(name), trace_guid(guid),
		  (unsigned long long)(size ? *size : 0), s);
	return s;
}

static EFI_STATUS EFIAPI t_get_next_variable_name(UINTN *size, CHAR16 *name, EFI_GUID *guid)
{
	EFI_STATUS s = efi_get_next_variable_name(size, name, guid);
	RT_RESULT("GetNextVariableName() -> \"%ls\"", !EFI_ERROR(s) ? safe_name(name) : u"", s);
	return s;
}

static EFI_STATUS EFIAPI t_set_variable(CHAR16 *name, EFI_GUID *guid, UINT32 attributes, UINTN size,
					VOID *data)
{
	EFI_STATUS s = efi_set_variable(name, guid, attributes, size, data);
	RT_RESULT("SetVariable(\"%ls\", %s, 0x%x, %llu)", safe_name(name), trace_guid(guid),
		  attributes, (unsigned long long)size, s);
	return s;
}

static EFI_STATUS EFIAPI t_get_next_high_monotonic_count(UINT32 *count)
{
	EFI_STATUS s = efi_get_next_high_monotonic_count(count);
	RT_RESULT("GetNextHighMonotonicCount() -> %u", count && !EFI_ERROR(s) ? *count : 0, s);
	return s;
}

static VOID EFIAPI t_reset_system(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size, VOID *data)
{
	out("RT.ResetSystem(%u, %r, %llu)\n", (unsigned)type, status, (unsigned long long)size);
	efi_reset_system(type, status, size, data);
}

static EFI_STATUS EFIAPI t_update_capsule(EFI_CAPSULE_HEADER **capsules, UINTN count,
					  EFI_PHYSICAL_ADDRESS list)
{
	EFI_STATUS s = efi_update_capsule(capsules, count, list);
	RT_RESULT("UpdateCapsule(%llu)", (unsigned long long)count, s);
	return s;
}

static EFI_STATUS EFIAPI t_query_capsule_capabilities(EFI_CAPSULE_HEADER **capsules, UINTN count,
						      UINT64 *max, EFI_RESET_TYPE *reset)
{
	EFI_STATUS s = efi_query_capsule_capabilities(capsules, count, max, reset);
	RT_RESULT("QueryCapsuleCapabilities(%llu)", (unsigned long long)count, s);
	return s;
}

static EFI_STATUS EFIAPI t_query_variable_info(UINT32 attributes, UINT64 *max, UINT64 *remaining,
					       UINT64 *max_size)
{
	EFI_STATUS s = efi_query_variable_info(attributes, max, remaining, max_size);
	RT_RESULT("QueryVariableInfo(0x%x)", attributes, s);
	return s;
}

/* Points the system table at wrapper tables. */
void trace_install(void)
{
	trace_bs = (EFI_BOOT_SERVICES){core_bs->Hdr,
				       t_raise_tpl,
				       t_restore_tpl,
				       t_allocate_pages,
				       t_free_pages,
				       t_get_memory_map,
				       t_allocate_pool,
				       t_free_pool,
				       t_create_event,
				       t_set_timer,
				       t_wait_for_event,
				       t_signal_event,
				       t_close_event,
				       t_check_event,
				       t_install_protocol_interface,
				       t_reinstall_protocol_interface,
				       t_uninstall_protocol_interface,
				       t_handle_protocol,
				       NULL,
				       t_register_protocol_notify,
				       t_locate_handle,
				       t_locate_device_path,
				       t_install_configuration_table,
				       t_load_image,
				       t_start_image,
				       t_exit,
				       t_unload_image,
				       t_exit_boot_services,
				       t_get_next_monotonic_count,
				       t_stall,
				       t_set_watchdog_timer,
				       t_connect_controller,
				       t_disconnect_controller,
				       t_open_protocol,
				       t_close_protocol,
				       t_open_protocol_information,
				       t_protocols_per_handle,
				       t_locate_handle_buffer,
				       t_locate_protocol,
				       t_install_multiple,
				       t_uninstall_multiple,
				       t_calculate_crc32,
				       t_copy_mem,
				       t_set_mem,
				       t_create_event_ex};
	trace_rt = pool_alloc_typed(EfiRuntimeServicesData, sizeof(*trace_rt));
	if (!trace_rt) {
		log_warn("--trace: no memory for the tables\n");
		return;
	}
	*trace_rt = (EFI_RUNTIME_SERVICES){core_rt->Hdr,
					   t_get_time,
					   t_set_time,
					   t_get_wakeup_time,
					   t_set_wakeup_time,
					   t_set_virtual_address_map,
					   t_convert_pointer,
					   t_get_variable,
					   t_get_next_variable_name,
					   t_set_variable,
					   t_get_next_high_monotonic_count,
					   t_reset_system,
					   t_update_capsule,
					   t_query_capsule_capabilities,
					   t_query_variable_info};
	table_update_crc(&trace_bs.Hdr);
	table_update_crc(&trace_rt->Hdr);
	core_bs = &trace_bs; /* ExitBootServices clears what the images see */
	core_st->BootServices = &trace_bs;
	core_st->RuntimeServices = trace_rt;
	table_update_crc(&core_st->Hdr);
}
