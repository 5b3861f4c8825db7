/* The serial terminal driver (UEFI driver model): binds to SerialIo devices and gives each
 * a child handle, .../Uart(baud,data,parity,stop)/VenUtf8(), with SimpleTextOut,
 * SimpleTextIn and SimpleTextInEx, for the console splitter to use. */
#define LOG_PREFIX "terminal: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/driver.h>
#include <ember/core/log.h>
#include <ember/core/settings.h>
#include <ember/lib/str.h>
#include "terminal.h"
#include <ember/lib/guids.h>

#pragma pack(push, 1)
struct terminal_path_tail {
	UART_DEVICE_PATH uart;
	VENDOR_DEVICE_PATH type;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

static void set_node(EFI_DEVICE_PATH_PROTOCOL *node, UINT8 type, UINT8 subtype, UINT16 length)
{
	node->Type = type;
	node->SubType = subtype;
	node->Length[0] = (UINT8)length;
	node->Length[1] = (UINT8)(length >> 8);
}

/* The parent's path, the line settings as a Uart() node, and the terminal type. */
static EFI_DEVICE_PATH_PROTOCOL *child_path(const EFI_DEVICE_PATH_PROTOCOL *parent,
					    const EFI_SERIAL_IO_MODE *mode)
{
	struct terminal_path_tail tail = {0};

	set_node(&tail.uart.Header, MESSAGING_DEVICE_PATH, MSG_UART_DP, sizeof(tail.uart));
	tail.uart.BaudRate = mode->BaudRate;
	tail.uart.DataBits = (UINT8)mode->DataBits;
	tail.uart.Parity = (UINT8)mode->Parity; /* same numbering as EFI_PARITY_TYPE */
	tail.uart.StopBits = (UINT8)mode->StopBits;
	set_node(&tail.type.Header, MESSAGING_DEVICE_PATH, MSG_VENDOR_DP, sizeof(tail.type));
	tail.type.Guid = efi_vt_utf8_guid;
	set_node(&tail.end, END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, sizeof(tail.end));
	return dp_append(parent, &tail.uart.Header);
}

static EFI_STATUS EFIAPI terminal_supported(EFI_DRIVER_BINDING_PROTOCOL *this,
					    EFI_HANDLE controller,
					    EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_STATUS status = driver_can_open(this->DriverBindingHandle, controller,
					    &efi_serial_io_protocol_guid, NULL);
	void *path;

	if (EFI_ERROR(status))
		return status;
	if (EFI_ERROR(protocol_get(controller, &efi_device_path_protocol_guid, &path)))
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

/* The child, its protocols and its open of the parent's SerialIo. */
static EFI_STATUS create_child(struct terminal *t, EFI_HANDLE agent)
{
	EFI_SERIAL_IO_PROTOCOL *serial;
	EFI_STATUS status;

	terminal_out_init(t);
	status = terminal_in_init(t);
	if (EFI_ERROR(status))
		return status;			/* text_input_init said which step */
	t->text.out.Reset(&t->text.out, FALSE); /* a known state: default colours, cleared */
	status = protocol_install_multiple(&t->handle, &efi_device_path_protocol_guid, t->path,
					   &efi_simple_text_output_protocol_guid, &t->text.out,
					   &efi_simple_text_input_protocol_guid, &t->input.in,
					   &efi_simple_text_input_ex_protocol_guid, &t->input.in_ex,
					   NULL);
	if (EFI_ERROR(status)) {
		log_debug("installing the child's protocols: %r\n", status);
		goto err_input;
	}
	status = protocol_open(t->controller, &efi_serial_io_protocol_guid, (void **)&serial, agent,
			       t->handle, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
	if (EFI_ERROR(status)) {
		log_debug("opening SerialIo for the child: %r\n", status);
		goto err_uninstall;
	}
	return EFI_SUCCESS;

err_uninstall:
	protocol_uninstall_multiple(t->handle, &efi_device_path_protocol_guid, t->path,
				    &efi_simple_text_output_protocol_guid, &t->text.out,
				    &efi_simple_text_input_protocol_guid, &t->input.in,
				    &efi_simple_text_input_ex_protocol_guid, &t->input.in_ex, NULL);
err_input:
	text_input_fini(&t->input);
	return status;
}

/* The line speed the SerialConsole setting names (include/ember/core/settings.h), set
 * before the child's Uart() node records it; a device that refuses it keeps its own. */
static void apply_serial_setting(EFI_SERIAL_IO_PROTOCOL *serial)
{
	struct ember_serial_console want;
	UINTN size = sizeof(want);
	EFI_STATUS status;

	if (EFI_ERROR(variable_get(EMBER_SERIAL_CONSOLE_VARIABLE, &ember_settings_guid, NULL, &size,
				   &want)) ||
	    size != sizeof(want) || !want.baud || want.baud == serial->Mode->BaudRate)
		return;
	status = serial->SetAttributes(serial, want.baud, serial->Mode->ReceiveFifoDepth,
				       serial->Mode->Timeout, (EFI_PARITY_TYPE)serial->Mode->Parity,
				       (UINT8)serial->Mode->DataBits,
				       (EFI_STOP_BITS_TYPE)serial->Mode->StopBits);
	log_debug("%u baud from the SerialConsole setting: %r\n", want.baud, status);
}

static void log_terminal(const struct terminal *t)
{
	CHAR16 *text = dp_to_text(t->path, false, true);

	log_info("%ls\n", text ? text : u"(no path text)");
	pool_free(text);
}

static EFI_STATUS EFIAPI terminal_start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
					EFI_DEVICE_PATH_PROTOCOL *remaining)
{
	EFI_HANDLE agent = this->DriverBindingHandle;
	EFI_DEVICE_PATH_PROTOCOL *parent;
	struct terminal *t = pool_alloc(sizeof(*t));
	EFI_STATUS status;

	if (!t) {
		log_debug("no memory for the terminal\n");
		return EFI_OUT_OF_RESOURCES;
	}
	t->signature = TERMINAL_SIGNATURE;
	t->controller = controller;
	status = protocol_open(controller, &efi_serial_io_protocol_guid, (void **)&t->serial, agent,
			       controller, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (EFI_ERROR(status)) {
		log_debug("opening SerialIo: %r\n", status);
		goto err_free;
	}
	status = protocol_get(controller, &efi_device_path_protocol_guid, (void **)&parent);
	if (EFI_ERROR(status)) {
		log_debug("the serial device has no device path: %r\n", status);
		goto err_close;
	}
	apply_serial_setting(t->serial);
	t->path = child_path(parent, t->serial->Mode);
	if (!t->path) {
		log_debug("no memory for the child's device path\n");
		status = EFI_OUT_OF_RESOURCES;
		goto err_close;
	}
	status = create_child(t, agent);
	if (EFI_ERROR(status))
		goto err_path; /* create_child said which step */
	log_terminal(t);
	return EFI_SUCCESS;

err_path:
	pool_free(t->path);
err_close:
	protocol_close(controller, &efi_serial_io_protocol_guid, agent, controller);
err_free:
	pool_free(t);
	return status;
}

static EFI_STATUS stop_child(EFI_HANDLE agent, EFI_HANDLE controller, EFI_HANDLE child)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out;
	struct text_output *text;
	struct terminal *t;
	EFI_STATUS status;

	if (EFI_ERROR(protocol_get(child, &efi_simple_text_output_protocol_guid, (void **)&out)))
		return EFI_INVALID_PARAMETER;
	text = text_output_from(out);
	if (!text)
		return EFI_INVALID_PARAMETER;
	t = container_of(text, struct terminal, text);
	if (t->signature != TERMINAL_SIGNATURE || t->controller != controller)
		return EFI_INVALID_PARAMETER;
	protocol_close(controller, &efi_serial_io_protocol_guid, agent, child);
	status = protocol_uninstall_multiple(
	    child, &efi_device_path_protocol_guid, t->path, &efi_simple_text_output_protocol_guid,
	    &t->text.out, &efi_simple_text_input_protocol_guid, &t->input.in,
	    &efi_simple_text_input_ex_protocol_guid, &t->input.in_ex, NULL);
	if (EFI_ERROR(status)) {
		EFI_SERIAL_IO_PROTOCOL *serial;
		protocol_open(controller, &efi_serial_io_protocol_guid, (void **)&serial, agent,
			      child, EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
		return status;
	}
	text_input_fini(&t->input);
	text_output_fini(&t->text);
	t->signature = 0;
	pool_free(t->path);
	pool_free(t);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI terminal_stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE controller,
				       UINTN child_count, EFI_HANDLE *children)
{
	EFI_HANDLE agent = this->DriverBindingHandle;
	EFI_STATUS status = EFI_SUCCESS;

	if (!child_count)
		return protocol_close(controller, &efi_serial_io_protocol_guid, agent, controller);
	for (UINTN i = 0; i < child_count; i++)
		if (EFI_ERROR(stop_child(agent, controller, children[i])))
			status = EFI_DEVICE_ERROR;
	return status;
}

static EFI_DRIVER_BINDING_PROTOCOL terminal_binding = {
    .Supported = terminal_supported,
    .Start = terminal_start,
    .Stop = terminal_stop,
    .Version = 0x10,
};

/* Names only the serial devices this driver manages, and their terminals. */
static EFI_STATUS EFIAPI terminal_controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this,
						  EFI_HANDLE controller, EFI_HANDLE child,
						  CHAR8 *language, CHAR16 **name)
{
	EFI_HANDLE agent = terminal_binding.DriverBindingHandle;
	EFI_SERIAL_IO_PROTOCOL *serial;
	EFI_STATUS status =
	    protocol_open(controller, &efi_serial_io_protocol_guid, (void **)&serial, agent,
			  controller, EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (status == EFI_SUCCESS)
		protocol_close(controller, &efi_serial_io_protocol_guid, agent, controller);
	if (status != EFI_ALREADY_STARTED)
		return EFI_UNSUPPORTED;
	*name = child ? u"Serial Terminal (VT100/UTF-8)" : u"Serial Port";
	return EFI_SUCCESS;
}

static const struct ember_driver terminal_driver = {
    .name = u"Serial Terminal Driver",
    .binding = &terminal_binding,
    .controller_name = terminal_controller_name,
};
EMBER_DRIVER(INIT_CONSOLE, terminal_driver);
