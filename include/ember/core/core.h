/* The core's internal API, for drivers and platforms (never through the boot-services
 * table). Each function mirrors a boot service but trusts its caller: pointers are
 * valid, handles are real. EFIAPI entry points in core/ validate and call these. */
#ifndef EMBER_CORE_H
#define EMBER_CORE_H

#include <stdbool.h>
#include <efi/system_table.h>
#include <efi/protocol/loaded_image.h>

/* ---- Start-up (called by platforms) ---- */

/* A range of the machine's memory, as the platform found it. */
struct core_memory_range {
	EFI_PHYSICAL_ADDRESS base; /* page-aligned */
	UINT64 pages;
	EFI_MEMORY_TYPE type; /* EfiConventionalMemory for free RAM */
	UINT64 attribute;     /* EFI_MEMORY_* capabilities */
};

struct core_config {
	const struct core_memory_range *ranges;
	size_t range_count;
	const CHAR16 *firmware_vendor;
	UINT32 firmware_revision;
	/* Bytes to which runtime code and data, reserved and ACPI NVS allocations are aligned
	 * and sized (64 KiB on AArch64: UEFI 2.10, 2.3.6); 0 for a page. */
	UINT64 runtime_granularity;
};

/* Brings up memory, events, the protocol database and the system table. */
EFI_STATUS core_init(const struct core_config *config);

/* The platform's periodic timer interrupt; called with interrupts disabled. */
void core_timer_tick(void);

/* The system table the core hands to images. */
extern EFI_SYSTEM_TABLE *core_st;
/* The firmware's own image handle (the parent of images the platform loads). */
extern EFI_HANDLE core_image_handle;

/* Sets a console in the system table (ConIn/ConOut/StdErr) and refreshes its CRC. */
void core_set_console_in(EFI_HANDLE handle, EFI_SIMPLE_TEXT_INPUT_PROTOCOL *in);
void core_set_console_out(EFI_HANDLE handle, EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out);
void core_set_std_err(EFI_HANDLE handle, EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *err);

/* Recomputes a table header's CRC32 (after any change to the table). */
void table_update_crc(EFI_TABLE_HEADER *header);

/* ---- Memory ---- */

EFI_STATUS mem_allocate_pages(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory_type, UINTN pages,
			      EFI_PHYSICAL_ADDRESS *memory);
EFI_STATUS mem_free_pages(EFI_PHYSICAL_ADDRESS memory, UINTN pages);

/* Pool memory, 16-byte aligned. NULL when memory is exhausted. */
void *pool_alloc_typed(EFI_MEMORY_TYPE type, UINTN size);
void *pool_alloc(UINTN size);		     /* EfiBootServicesData, zero-filled */
void *pool_dup(const void *src, UINTN size); /* EfiBootServicesData copy */
void pool_free(void *buffer);		     /* NULL is ignored */

/* True when [address, address+size) lies inside memory the core allocated
 * (not free, not outside RAM): safe to read before trusting a caller's pointer. */
bool mem_is_allocated(const void *address, UINTN size);

/* ---- Memory protection (core/mem/protect.c) ---- */

/* Called by the platform once it can change its page tables: gives every page of the map
 * the protection of its type and publishes EFI_MEMORY_ATTRIBUTE_PROTOCOL. */
EFI_STATUS mem_protection_start(void);
/* True once mem_protection_start has succeeded. */
bool mem_protection_enabled(void);
/* The protection (EFI_MEMORY_XP or 0) pages of a memory type get when allocated or freed:
 * the NX policy. */
UINT64 mem_type_protection(UINT32 type);
/* Sets, then clears, EFI_MEMORY_RP/RO/XP on allocated pages: EFI_UNSUPPORTED when
 * protection is off or the map does not describe every page, EFI_ACCESS_DENIED for free
 * memory, EFI_OUT_OF_RESOURCES when page tables could not be split. */
EFI_STATUS mem_protect(UINT64 start, UINT64 pages, UINT64 set, UINT64 clear);
/* mem_protection_start, then the firmware's own image as the memory attributes table
 * describes it: its code [code, data) read-only, its data [data, end) never executable. A
 * warning says when protection could not be set. */
EFI_STATUS mem_protection_start_with_image(UINT64 code, UINT64 data, UINT64 end);
/* The protection of the pages: EFI_NO_MAPPING when it differs between them,
 * EFI_UNSUPPORTED when the map does not describe every page. */
EFI_STATUS mem_get_protection(UINT64 start, UINT64 pages, UINT64 *attributes);

/* ---- TPL and events ---- */

EFI_TPL tpl_raise(EFI_TPL new_tpl);
void tpl_restore(EFI_TPL old_tpl);
EFI_TPL tpl_current(void);

EFI_STATUS event_create(UINT32 type, EFI_TPL notify_tpl, EFI_EVENT_NOTIFY notify_function,
			const void *notify_context, const EFI_GUID *event_group, EFI_EVENT *event);
EFI_STATUS event_close(EFI_EVENT event);
EFI_STATUS event_signal(EFI_EVENT event);
EFI_STATUS event_check(EFI_EVENT event);
EFI_STATUS event_wait(UINTN count, EFI_EVENT *events, UINTN *index);
EFI_STATUS event_set_timer(EFI_EVENT event, EFI_TIMER_DELAY type, UINT64 trigger_time);
/* True when event is a live event (for checking events that callers hand in). */
bool event_is_valid(EFI_EVENT event);
/* Signals every event in a group (used for EXIT_BOOT_SERVICES, READY_TO_BOOT ...). */
void event_signal_group(const EFI_GUID *group);
/* Ember's own event group, signaled when ExitBootServices refuses a stale map key (measured
 * boot logs "Exit Boot Services Returned with Failure"). */
extern const EFI_GUID core_event_group_exit_boot_services_failed_guid;

/* Arms the watchdog for a number of seconds (0 disarms it), as SetWatchdogTimer does. */
EFI_STATUS core_watchdog_set(UINT64 seconds);

/* Busy-waits, letting timer interrupts run. */
void core_stall_us(UINT64 microseconds);

/* Nanoseconds on the firmware's monotonic clock (from an arbitrary start), for drivers that
 * time things: key sequences, entropy. Drivers ask the core, never the platform. */
UINT64 core_time_ns(void);

/* ---- Protocol database ---- */

EFI_STATUS protocol_install(EFI_HANDLE *handle, const EFI_GUID *protocol, void *interface);
EFI_STATUS protocol_uninstall(EFI_HANDLE handle, const EFI_GUID *protocol, void *interface);
EFI_STATUS protocol_reinstall(EFI_HANDLE handle, const EFI_GUID *protocol, void *old_interface,
			      void *new_interface);
/* Installs NULL-terminated (const EFI_GUID *, void *) pairs, all or nothing; refuses a
 * device path already present on another handle (EFI_ALREADY_STARTED). */
EFI_STATUS protocol_install_multiple(EFI_HANDLE *handle, ...);
EFI_STATUS protocol_uninstall_multiple(EFI_HANDLE handle, ...);
/* HandleProtocol: the interface or EFI_UNSUPPORTED. */
EFI_STATUS protocol_get(EFI_HANDLE handle, const EFI_GUID *protocol, void **interface);
EFI_STATUS protocol_open(EFI_HANDLE handle, const EFI_GUID *protocol, void **interface,
			 EFI_HANDLE agent, EFI_HANDLE controller, UINT32 attributes);
EFI_STATUS protocol_close(EFI_HANDLE handle, const EFI_GUID *protocol, EFI_HANDLE agent,
			  EFI_HANDLE controller);
/* RegisterProtocolNotify: event is signalled whenever an interface of protocol arrives;
 * handle_locate_buffer(ByRegisterNotify, ..., registration) hands out the new handles. */
EFI_STATUS protocol_register_notify(const EFI_GUID *protocol, EFI_EVENT event, void **registration);
/* LocateProtocol without a registration: the first interface installed. */
EFI_STATUS protocol_locate(const EFI_GUID *protocol, void **interface);
EFI_STATUS handle_locate_buffer(EFI_LOCATE_SEARCH_TYPE type, const EFI_GUID *protocol,
				void *search_key, UINTN *count, EFI_HANDLE **buffer);
EFI_STATUS handle_locate_device_path(const EFI_GUID *protocol, EFI_DEVICE_PATH_PROTOCOL **path,
				     EFI_HANDLE *device);
/* True when handle is a live handle in the database. */
bool handle_is_valid(EFI_HANDLE handle);

/* ---- Driver model ---- */

EFI_STATUS driver_connect(EFI_HANDLE controller, EFI_HANDLE *driver_images,
			  EFI_DEVICE_PATH_PROTOCOL *remaining, bool recursive);
EFI_STATUS driver_disconnect(EFI_HANDLE controller, EFI_HANDLE driver_image, EFI_HANDLE child);
/* Connects every controller recursively (what a boot manager does first). */
void driver_connect_all(void);

/* ---- Images ---- */

/* LoadImage, the image judged by the security architectural protocols installed at the
 * time (Secure Boot). On failure *reason (when not NULL) says why in a short phrase,
 * e.g. "not a PE32+ image" or "unsupported machine type 0x14c". */
EFI_STATUS image_load(bool boot_policy, EFI_HANDLE parent, EFI_DEVICE_PATH_PROTOCOL *path,
		      const void *buffer, UINTN size, EFI_HANDLE *image, const char **reason);
/* LoadImage of an image built into the firmware (the embedded shell): platform code, which
 * the security policy does not judge (UEFI 2.10 32.4 checks images from outside). */
EFI_STATUS image_load_builtin(EFI_HANDLE parent, const void *buffer, UINTN size, EFI_HANDLE *image,
			      const char **reason);
EFI_STATUS image_start(EFI_HANDLE image, UINTN *exit_data_size, CHAR16 **exit_data);
/* How many images StartImage has run since start-up (built-in drivers are no images): 0
 * while only the firmware's own code has run. */
extern UINTN image_starts;
EFI_STATUS image_unload(EFI_HANDLE image);
/* Gives an image a name for traces and crash reports (a copy is kept). */
void image_set_name(EFI_HANDLE image, const char *name);
/* The handle of the innermost image StartImage runs now; NULL when none does. */
EFI_HANDLE image_current_handle(void);
/* Whether an application loaded from outside the firmware (not image_load_builtin, not
 * the firmware's volume) has been started since reset (docs/setup-settings.md: the owner's writes
 * end then). */
bool image_outside_application_started(void);

/* The loaded image containing address, for crash reports: its name and base. */
struct image_location {
	const char *name;
	UINT64 base, size;
};
bool image_find_by_address(UINT64 address, struct image_location *where);

/* ---- A fault in a program (the platforms' exception and signal handlers) ---- */

/* The program a fault can end: the innermost image StartImage runs, unless it is being
 * ended already. False when none runs: a fault is then the firmware's own. */
bool image_running(struct image_location *where);
/* Whether a fault at rip, taken at TPL tpl, may end the running program as if it had
 * called Exit(EFI_ABORTED) instead of stopping everything. Yes when rip lies in a
 * program's code. When it lies in Ember's, only if the platform found the program at
 * fault (programs_fault: a bad pointer it passed, a call with a misaligned stack, its
 * stack used up) and tpl is below TPL_HIGH_LEVEL (at which Ember changes its event
 * queues). Never with no program running, nor after ExitBootServices. */
bool image_fault_abortable(UINT64 rip, EFI_TPL tpl, bool programs_fault);
/* The stack pointer a handler resumes on to call image_abort_running: just below the
 * running program's StartImage frame, aligned as at a function's entry. */
UINTN image_abort_stack(void);
/* Ends the running program as Exit(EFI_ABORTED) does: its StartImage returns EFI_ABORTED
 * at the TPL it started at, with interrupts in the state that TPL implies, and what
 * Exit frees is freed. Call with the TPL raised to TPL_HIGH_LEVEL. */
_Noreturn void image_abort_running(void);

/* ---- Misc ---- */

/* Variables, for the boot manager and drivers: the runtime services without the
 * argument checks callers of the table get. variable_read returns a pool copy. */
EFI_STATUS variable_get(const CHAR16 *name, const EFI_GUID *guid, UINT32 *attributes, UINTN *size,
			void *data);
EFI_STATUS variable_set(const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes, UINTN size,
			const void *data);
/* SetVariable as the firmware: variables only it may write (BootCurrent, ConOutDev ...). */
EFI_STATUS variable_set_firmware(const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes,
				 UINTN size, const void *data);
EFI_STATUS variable_read(const CHAR16 *name, const EFI_GUID *guid, void **data, UINTN *size,
			 UINT32 *attributes);
/* A Secure Boot key database written as the platform owner (var_set_firmware_at, stamped
 * with the current time): only variable_owner.c calls it, after its checks. */
EFI_STATUS variable_set_owner(const CHAR16 *name, const EFI_GUID *guid, UINT32 attributes,
			      UINTN size, const void *data);
/* Puts EMBER_VARIABLE_OWNER_PROTOCOL on the image handle of the firmware's own setup
 * program (loaded with image_load_builtin, not started yet); variable_owner_revoke takes
 * it away once the program returned (include/ember/core/variable_owner.h). */
EFI_STATUS variable_owner_grant(EFI_HANDLE image);
void variable_owner_revoke(EFI_HANDLE image);

/* The runtime clock (GetTime), for timestamps in drivers. */
EFI_STATUS core_get_time(EFI_TIME *time);

/* Installs or removes (table NULL) a configuration table. */
EFI_STATUS config_table_install(const EFI_GUID *guid, void *table);

/* Declares the firmware's own runtime image (a platform's core, linked at a fixed place):
 * [start, code_end) is its code and read-only data, [code_end, end) its data; both page
 * aligned. The memory attributes table describes it so (RO and XP). */
void runtime_image_declare(UINT64 start, UINT64 code_end, UINT64 end);
/* Declares where that image's data holds absolute addresses: bit i of map (map_size bytes,
 * bit 0 first) set when the 8 bytes at data + 8 * i do. SetVirtualAddressMap converts
 * those that point into a runtime range, after the VIRTUAL_ADDRESS_CHANGE notifications. */
void runtime_pointer_slots_declare(UINT64 data, const UINT8 *map, UINTN map_size);

/* ConvertPointer for runtime code, from its EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE handler. */
EFI_STATUS runtime_convert_pointer(void **address);

/* True once ExitBootServices has succeeded. */
extern bool core_boot_services_exited;

#endif
