/* Declarations shared between the core's modules: the EFIAPI entry points that make up
 * the service tables, and internal functions that are not part of include/ember/core/core.h. */
#ifndef CORE_SERVICES_H
#define CORE_SERVICES_H

#include <stdarg.h>
#include <ember/core/core.h>

/* Memory (mem/) */
bool mem_type_is_allocatable(UINT32 type);
EFI_STATUS mem_allocate_aligned(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory_type, UINTN pages,
				UINT64 align, EFI_PHYSICAL_ADDRESS *memory);
EFI_STATUS mem_get_map(UINTN *map_size, EFI_MEMORY_DESCRIPTOR *map, UINTN *map_key,
		       UINTN *descriptor_size, UINT32 *descriptor_version);
EFI_STATUS pool_free_checked(void *buffer);
EFI_STATUS mem_init(const struct core_memory_range *ranges, size_t count);
/* Allocations of runtime code and data, reserved and ACPI NVS memory are aligned and sized
 * to bytes (a power of two; 0 or a page: no rounding). */
void mem_set_runtime_granularity(UINT64 bytes);
/* Applies a protection the map now records for pages whose type changed. */
void mem_protection_apply(UINT64 start, UINT64 pages, UINT64 protection);
/* Publishes EFI_MEMORY_ATTRIBUTE_PROTOCOL (memory_attribute.c). */
EFI_STATUS mem_attribute_install(void);

EFI_STATUS EFIAPI efi_allocate_pages(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory_type,
				     UINTN pages, EFI_PHYSICAL_ADDRESS *memory);
EFI_STATUS EFIAPI efi_free_pages(EFI_PHYSICAL_ADDRESS memory, UINTN pages);
EFI_STATUS EFIAPI efi_get_memory_map(UINTN *map_size, EFI_MEMORY_DESCRIPTOR *map, UINTN *map_key,
				     UINTN *descriptor_size, UINT32 *descriptor_version);
EFI_STATUS EFIAPI efi_allocate_pool(EFI_MEMORY_TYPE type, UINTN size, VOID **buffer);
EFI_STATUS EFIAPI efi_free_pool(VOID *buffer);

/* TPL and events (event/) */
EFI_TPL EFIAPI efi_raise_tpl(EFI_TPL new_tpl);
VOID EFIAPI efi_restore_tpl(EFI_TPL old_tpl);
EFI_STATUS EFIAPI efi_create_event(UINT32 type, EFI_TPL notify_tpl, EFI_EVENT_NOTIFY notify,
				   VOID *context, EFI_EVENT *event);
EFI_STATUS EFIAPI efi_create_event_ex(UINT32 type, EFI_TPL notify_tpl, EFI_EVENT_NOTIFY notify,
				      CONST VOID *context, CONST EFI_GUID *group, EFI_EVENT *event);
EFI_STATUS EFIAPI efi_set_timer(EFI_EVENT event, EFI_TIMER_DELAY type, UINT64 trigger_time);
EFI_STATUS EFIAPI efi_wait_for_event(UINTN count, EFI_EVENT *events, UINTN *index);
EFI_STATUS EFIAPI efi_signal_event(EFI_EVENT event);
EFI_STATUS EFIAPI efi_close_event(EFI_EVENT event);
EFI_STATUS EFIAPI efi_check_event(EFI_EVENT event);
/* Closes every protocol-notify registration that uses this event (handle/). */
void protocol_notify_forget_event(EFI_EVENT event);

/* Protocol handler (handle/) */
EFI_STATUS EFIAPI efi_install_protocol_interface(EFI_HANDLE *handle, EFI_GUID *protocol,
						 EFI_INTERFACE_TYPE type, VOID *interface);
EFI_STATUS EFIAPI efi_reinstall_protocol_interface(EFI_HANDLE handle, EFI_GUID *protocol,
						   VOID *old_interface, VOID *new_interface);
EFI_STATUS EFIAPI efi_uninstall_protocol_interface(EFI_HANDLE handle, EFI_GUID *protocol,
						   VOID *interface);
EFI_STATUS EFIAPI efi_handle_protocol(EFI_HANDLE handle, EFI_GUID *protocol, VOID **interface);
EFI_STATUS EFIAPI efi_register_protocol_notify(EFI_GUID *protocol, EFI_EVENT event,
					       VOID **registration);
EFI_STATUS EFIAPI efi_locate_handle(EFI_LOCATE_SEARCH_TYPE type, EFI_GUID *protocol,
				    VOID *search_key, UINTN *buffer_size, EFI_HANDLE *buffer);
EFI_STATUS EFIAPI efi_locate_device_path(EFI_GUID *protocol, EFI_DEVICE_PATH_PROTOCOL **path,
					 EFI_HANDLE *device);
EFI_STATUS EFIAPI efi_open_protocol(EFI_HANDLE handle, EFI_GUID *protocol, VOID **interface,
				    EFI_HANDLE agent, EFI_HANDLE controller, UINT32 attributes);
EFI_STATUS EFIAPI efi_close_protocol(EFI_HANDLE handle, EFI_GUID *protocol, EFI_HANDLE agent,
				     EFI_HANDLE controller);
EFI_STATUS EFIAPI efi_open_protocol_information(EFI_HANDLE handle, EFI_GUID *protocol,
						EFI_OPEN_PROTOCOL_INFORMATION_ENTRY **entries,
						UINTN *count);
EFI_STATUS EFIAPI efi_protocols_per_handle(EFI_HANDLE handle, EFI_GUID ***protocols, UINTN *count);
EFI_STATUS EFIAPI efi_locate_handle_buffer(EFI_LOCATE_SEARCH_TYPE type, EFI_GUID *protocol,
					   VOID *search_key, UINTN *count, EFI_HANDLE **buffer);
EFI_STATUS EFIAPI efi_locate_protocol(EFI_GUID *protocol, VOID *registration, VOID **interface);
EFI_STATUS EFIAPI efi_install_multiple_protocol_interfaces(EFI_HANDLE *handle, ...);
EFI_STATUS EFIAPI efi_uninstall_multiple_protocol_interfaces(EFI_HANDLE handle, ...);
/* (GUID, interface) pairs of the Multiple protocol services, collected from varargs. */
#define MAX_PAIRS 64
struct protocol_pair {
	const EFI_GUID *guid;
	void *interface;
};
EFI_STATUS protocol_install_pairs(EFI_HANDLE *handle, const struct protocol_pair *pairs, UINTN n);
EFI_STATUS protocol_uninstall_pairs(EFI_HANDLE handle, const struct protocol_pair *pairs, UINTN n);

/* Reads (GUID, interface) pairs up to a NULL GUID; false if there are too many. */
#define COLLECT_PAIRS(ap, va_arg_fn, pairs, n)                                                     \
	({                                                                                         \
		bool ok_ = true;                                                                   \
		const EFI_GUID *g_;                                                                \
		(n) = 0;                                                                           \
		while ((g_ = va_arg_fn(ap, const EFI_GUID *)) != NULL) {                           \
			void *i_ = va_arg_fn(ap, void *);                                          \
			if ((n) == MAX_PAIRS) {                                                    \
				ok_ = false;                                                       \
				break;                                                             \
			}                                                                          \
			(pairs)[(n)++] = (struct protocol_pair){g_, i_};                           \
		}                                                                                  \
		ok_;                                                                               \
	})

/* Variadic boot services take their arguments in the UEFI calling convention. */

#if defined(__x86_64__) && !defined(_WIN32)
typedef __builtin_ms_va_list efi_va_list;
#define efi_va_start __builtin_ms_va_start
#define efi_va_end __builtin_ms_va_end
#else
typedef va_list efi_va_list;
#define efi_va_start va_start
#define efi_va_end va_end
#endif
#define efi_va_arg __builtin_va_arg

/* Closes every open of every protocol by an agent (an image being unloaded). */
void protocol_close_all_by_agent(EFI_HANDLE agent);

/* Driver model (driver/) */
/* The children controller has, opened by agent (any agent when NULL), as a pool array. */
EFI_STATUS driver_children(EFI_HANDLE controller, EFI_HANDLE agent, EFI_HANDLE **children,
			   UINTN *count);
/* Whether driver's Start is running on controller now (disconnect waits for no one). */
bool driver_is_starting(EFI_HANDLE driver, EFI_HANDLE controller);
EFI_STATUS EFIAPI efi_connect_controller(EFI_HANDLE controller, EFI_HANDLE *driver_images,
					 EFI_DEVICE_PATH_PROTOCOL *remaining, BOOLEAN recursive);
EFI_STATUS EFIAPI efi_disconnect_controller(EFI_HANDLE controller, EFI_HANDLE driver_image,
					    EFI_HANDLE child);

/* Images (image/) */
EFI_STATUS EFIAPI efi_load_image(BOOLEAN boot_policy, EFI_HANDLE parent,
				 EFI_DEVICE_PATH_PROTOCOL *path, VOID *buffer, UINTN size,
				 EFI_HANDLE *image);
EFI_STATUS EFIAPI efi_start_image(EFI_HANDLE image, UINTN *exit_data_size, CHAR16 **exit_data);
EFI_STATUS EFIAPI efi_exit(EFI_HANDLE image, EFI_STATUS status, UINTN exit_data_size,
			   CHAR16 *exit_data);
EFI_STATUS EFIAPI efi_unload_image(EFI_HANDLE image);
EFI_STATUS image_init(void);

/* The tables (system_table.c, runtime/runtime_services.c) */
EFI_STATUS system_table_init(const CHAR16 *vendor, UINT32 revision);
EFI_STATUS runtime_tables_init(void);

/* Miscellaneous (misc/) */
EFI_STATUS EFIAPI efi_exit_boot_services(EFI_HANDLE image, UINTN map_key);
EFI_STATUS EFIAPI efi_get_next_monotonic_count(UINT64 *count);
EFI_STATUS EFIAPI efi_stall(UINTN microseconds);
EFI_STATUS EFIAPI efi_set_watchdog_timer(UINTN timeout, UINT64 code, UINTN data_size, CHAR16 *data);
EFI_STATUS EFIAPI efi_install_configuration_table(EFI_GUID *guid, VOID *table);
EFI_STATUS EFIAPI efi_calculate_crc32(VOID *data, UINTN size, UINT32 *crc);
VOID EFIAPI efi_copy_mem(VOID *destination, VOID *source, UINTN length);
VOID EFIAPI efi_set_mem(VOID *buffer, UINTN size, UINT8 value);

/* Runtime services (runtime/) */
EFI_STATUS EFIAPI efi_get_next_high_monotonic_count(UINT32 *high_count);
EFI_STATUS EFIAPI efi_get_time(EFI_TIME *time, EFI_TIME_CAPABILITIES *capabilities);
EFI_STATUS EFIAPI efi_set_time(EFI_TIME *time);
EFI_STATUS EFIAPI efi_get_wakeup_time(BOOLEAN *enabled, BOOLEAN *pending, EFI_TIME *time);
EFI_STATUS EFIAPI efi_set_wakeup_time(BOOLEAN enable, EFI_TIME *time);
EFI_STATUS EFIAPI efi_set_virtual_address_map(UINTN map_size, UINTN descriptor_size,
					      UINT32 descriptor_version,
					      EFI_MEMORY_DESCRIPTOR *virtual_map);
EFI_STATUS EFIAPI efi_convert_pointer(UINTN debug_disposition, VOID **address);
EFI_STATUS EFIAPI efi_get_variable(CHAR16 *name, EFI_GUID *guid, UINT32 *attributes,
				   UINTN *data_size, VOID *data);
EFI_STATUS EFIAPI efi_get_next_variable_name(UINTN *name_size, CHAR16 *name, EFI_GUID *guid);
EFI_STATUS EFIAPI efi_set_variable(CHAR16 *name, EFI_GUID *guid, UINT32 attributes, UINTN data_size,
				   VOID *data);
VOID EFIAPI efi_reset_system(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, VOID *data);
/* Calls the functions registered through EFI_RESET_NOTIFICATION_PROTOCOL (reset_notify.c),
 * before ExitBootServices only. */
void reset_notify_run(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, VOID *data);
EFI_STATUS EFIAPI efi_update_capsule(EFI_CAPSULE_HEADER **capsules, UINTN count,
				     EFI_PHYSICAL_ADDRESS scatter_gather);
EFI_STATUS EFIAPI efi_query_capsule_capabilities(EFI_CAPSULE_HEADER **capsules, UINTN count,
						 UINT64 *max_size, EFI_RESET_TYPE *reset_type);
EFI_STATUS EFIAPI efi_query_variable_info(UINT32 attributes, UINT64 *max_storage, UINT64 *remaining,
					  UINT64 *max_size);
extern EFI_RUNTIME_SERVICES *core_rt;
EFI_STATUS runtime_init(void);
/* The memory attributes table (memory_attributes.c): installed at start, filled again from
 * the final memory map by ExitBootServices. */
EFI_STATUS memory_attributes_install(void);
void runtime_memory_attributes_update(void);

/* The boot services table (boot_services.c). */
extern EFI_BOOT_SERVICES *core_bs;
EFI_STATUS boot_services_init(void);

/* Ticks of the timer in 100 ns units since start-up. */
UINT64 core_time_100ns(void);

#endif
