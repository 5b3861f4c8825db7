/* Every GUID Ember names, defined once (lib/guids.c): the specification's protocols,
 * configuration tables, event groups, variable namespaces and device-path vendor GUIDs, as
 * objects for code to point at (protocol_get(handle, &efi_block_io_protocol_guid, ...)), and
 * with a short name for people (--trace, the shell's dh and dmpstore). The values are the
 * spec headers' macros (include/efi/), so each is written down once. */
#ifndef EMBER_LIB_GUIDS_H
#define EMBER_LIB_GUIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/types.h>

extern const EFI_GUID efi_acpi_20_table_guid;
extern const EFI_GUID efi_acpi_table_guid;
extern const EFI_GUID efi_dtb_table_guid;
extern const EFI_GUID efi_dt_fixup_protocol_guid;
extern const EFI_GUID efi_block_io2_protocol_guid;
extern const EFI_GUID efi_block_io_protocol_guid;
extern const EFI_GUID efi_bus_specific_driver_override_protocol_guid;
extern const EFI_GUID efi_cert_rsa2048_guid;
extern const EFI_GUID efi_cert_sha1_guid;
extern const EFI_GUID efi_cert_sha256_guid;
extern const EFI_GUID efi_cert_sha384_guid;
extern const EFI_GUID efi_cert_sha512_guid;
extern const EFI_GUID efi_cert_type_pkcs7_guid;
extern const EFI_GUID efi_cert_x509_guid;
extern const EFI_GUID efi_cert_x509_sha256_guid;
extern const EFI_GUID efi_cert_x509_sha384_guid;
extern const EFI_GUID efi_cert_x509_sha512_guid;
extern const EFI_GUID efi_component_name2_protocol_guid;
extern const EFI_GUID efi_decompress_protocol_guid;
extern const EFI_GUID efi_firmware_volume2_protocol_guid;
extern const EFI_GUID efi_firmware_file_system2_guid;
extern const EFI_GUID efi_firmware_file_system3_guid;
extern const EFI_GUID efi_hii_database_protocol_guid;
extern const EFI_GUID efi_hii_package_list_protocol_guid;
extern const EFI_GUID efi_hii_set_keyboard_layout_event_guid;
extern const EFI_GUID efi_hii_string_protocol_guid;
extern const EFI_GUID efi_hii_font_protocol_guid;
extern const EFI_GUID efi_hii_config_routing_protocol_guid;
extern const EFI_GUID efi_hii_config_access_protocol_guid;
extern const EFI_GUID efi_form_browser2_protocol_guid;
extern const EFI_GUID efi_debug_image_info_table_guid;
extern const EFI_GUID efi_debugport_protocol_guid;
extern const EFI_GUID efi_device_path_from_text_protocol_guid;
extern const EFI_GUID efi_device_path_messaging_uart_flow_control_guid;
extern const EFI_GUID efi_device_path_protocol_guid;
extern const EFI_GUID efi_device_path_to_text_protocol_guid;
extern const EFI_GUID efi_device_path_utilities_protocol_guid;
extern const EFI_GUID efi_disk_info_ahci_interface_guid;
extern const EFI_GUID efi_disk_info_ide_interface_guid;
extern const EFI_GUID efi_disk_info_protocol_guid;
extern const EFI_GUID efi_disk_io2_protocol_guid;
extern const EFI_GUID efi_disk_io_protocol_guid;
extern const EFI_GUID efi_driver_binding_protocol_guid;
extern const EFI_GUID efi_driver_family_override_protocol_guid;
extern const EFI_GUID efi_event_group_after_ready_to_boot_guid;
extern const EFI_GUID efi_event_group_before_exit_boot_services_guid;
extern const EFI_GUID efi_event_group_exit_boot_services_guid;
extern const EFI_GUID efi_event_group_memory_map_change_guid;
extern const EFI_GUID efi_event_group_ready_to_boot_guid;
extern const EFI_GUID efi_event_group_reset_system_guid;
extern const EFI_GUID efi_event_group_virtual_address_change_guid;
extern const EFI_GUID efi_file_info_guid;
extern const EFI_GUID efi_file_system_info_guid;
extern const EFI_GUID efi_file_system_volume_label_guid;
extern const EFI_GUID efi_global_variable_guid;
extern const EFI_GUID efi_graphics_output_protocol_guid;
extern const EFI_GUID efi_hardware_error_variable_guid;
extern const EFI_GUID efi_image_security_database_guid;
extern const EFI_GUID efi_load_file2_protocol_guid;
extern const EFI_GUID efi_load_file_protocol_guid;
extern const EFI_GUID efi_loaded_image_device_path_protocol_guid;
extern const EFI_GUID efi_loaded_image_protocol_guid;
extern const EFI_GUID efi_memory_attribute_protocol_guid;
extern const EFI_GUID efi_memory_attributes_table_guid;
extern const EFI_GUID efi_part_type_efi_system_part_guid;
extern const EFI_GUID efi_part_type_legacy_mbr_guid;
extern const EFI_GUID efi_part_type_unused_guid;
extern const EFI_GUID efi_partition_info_protocol_guid;
extern const EFI_GUID efi_pc_ansi_guid;
extern const EFI_GUID efi_pci_io_protocol_guid;
extern const EFI_GUID efi_mp_services_protocol_guid;
extern const EFI_GUID efi_pci_root_bridge_io_protocol_guid;
extern const EFI_GUID efi_persistent_virtual_cd_guid;
extern const EFI_GUID efi_persistent_virtual_disk_guid;
extern const EFI_GUID efi_platform_driver_override_protocol_guid;
extern const EFI_GUID efi_ram_disk_protocol_guid;
extern const EFI_GUID efi_rng_algorithm_raw_guid;
extern const EFI_GUID efi_rng_protocol_guid;
extern const EFI_GUID efi_reset_notification_protocol_guid;
extern const EFI_GUID efi_rt_properties_table_guid;
extern const EFI_GUID efi_sas_device_path_guid;
extern const EFI_GUID efi_security2_arch_protocol_guid;
extern const EFI_GUID efi_security_arch_protocol_guid;
extern const EFI_GUID efi_serial_io_protocol_guid;
extern const EFI_GUID efi_serial_terminal_device_type_guid;
extern const EFI_GUID efi_shell_alias_guid;
extern const EFI_GUID efi_shell_parameters_protocol_guid;
extern const EFI_GUID efi_shell_protocol_guid;
extern const EFI_GUID efi_shell_variable_guid;
extern const EFI_GUID efi_simple_file_system_protocol_guid;
extern const EFI_GUID efi_simple_text_input_ex_protocol_guid;
extern const EFI_GUID efi_simple_text_input_protocol_guid;
extern const EFI_GUID efi_simple_text_output_protocol_guid;
extern const EFI_GUID efi_smbios3_table_guid;
extern const EFI_GUID efi_smbios_table_guid;
extern const EFI_GUID efi_tcg2_final_events_table_guid;
extern const EFI_GUID efi_tcg2_protocol_guid;
extern const EFI_GUID efi_unicode_collation_protocol2_guid;
extern const EFI_GUID efi_unicode_collation_protocol_guid;
extern const EFI_GUID efi_usb2_hc_protocol_guid;
extern const EFI_GUID efi_usb_io_protocol_guid;
/* PI architectural protocols (no interface): the variable services are up. */
extern const EFI_GUID efi_variable_arch_protocol_guid;
extern const EFI_GUID efi_variable_write_arch_protocol_guid;
extern const EFI_GUID efi_virtual_cd_guid;
extern const EFI_GUID efi_virtual_disk_guid;
extern const EFI_GUID efi_vt_100_guid;
extern const EFI_GUID efi_vt_100_plus_guid;
extern const EFI_GUID efi_vt_utf8_guid;
/* Protocols Ember does not implement yet, known by name for dh (no header of their own). */
extern const EFI_GUID efi_component_name_protocol_guid;
extern const EFI_GUID efi_driver_configuration_protocol_guid;
extern const EFI_GUID efi_driver_configuration2_protocol_guid;
extern const EFI_GUID efi_driver_diagnostics_protocol_guid;
extern const EFI_GUID efi_driver_diagnostics2_protocol_guid;
extern const EFI_GUID efi_driver_supported_efi_version_protocol_guid;
extern const EFI_GUID efi_driver_health_protocol_guid;
extern const EFI_GUID efi_simple_pointer_protocol_guid;
extern const EFI_GUID efi_absolute_pointer_protocol_guid;
extern const EFI_GUID efi_simple_network_protocol_guid;
extern const EFI_GUID efi_pxe_base_code_protocol_guid;
extern const EFI_GUID efi_ip4_config2_protocol_guid;
extern const EFI_GUID ember_net_tools_protocol_guid; /* include/ember/net/net_tools.h */
extern const EFI_GUID efi_edid_discovered_protocol_guid;
extern const EFI_GUID efi_edid_active_protocol_guid;
extern const EFI_GUID efi_edid_override_protocol_guid;
extern const EFI_GUID efi_ext_scsi_pass_thru_protocol_guid;
extern const EFI_GUID efi_scsi_io_protocol_guid;
extern const EFI_GUID efi_disk_info_scsi_interface_guid;
extern const EFI_GUID efi_ata_pass_thru_protocol_guid;
extern const EFI_GUID efi_nvm_express_pass_thru_protocol_guid;
extern const EFI_GUID efi_disk_info_nvme_interface_guid;
extern const EFI_GUID efi_ide_controller_init_protocol_guid;

/* Ember's own protocols (include/ember/drivers/). */
extern const EFI_GUID ember_text_input_state_protocol_guid;
extern const EFI_GUID ember_pci_driver_data_guid;
/* The USB bus driver's data on a host controller's handle (private to drivers/usb/bus). */
extern const EFI_GUID ember_usb_bus_data_guid;
extern const EFI_GUID ember_secure_boot_defaults_guid;
extern const EFI_GUID ember_tcg2_pcr_banks_guid;
extern const EFI_GUID ember_variable_owner_protocol_guid; /* include/ember/core/variable_owner.h */
extern const EFI_GUID ember_settings_guid;		  /* include/ember/core/settings.h */

/* One entry of the table: a GUID and its short name ("BlockIo", "GlobalVariable"). */
struct guid_name {
	const EFI_GUID *guid;
	const char *name;
};

/* The whole table, in no particular order; *count gets its length. */
const struct guid_name *guid_names(size_t *count);
/* The short name of guid, or NULL when Ember does not know it. */
const char *guid_name(const EFI_GUID *guid);
/* The GUID with that short name (compared without regard to ASCII case), or NULL. */
const EFI_GUID *guid_by_name(const char *name);

#endif
