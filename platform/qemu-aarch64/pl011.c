/* The PL011 UART: polled output for early and fatal messages and the log, and
 * EFI_SERIAL_IO_PROTOCOL (UEFI 2.10, 12.8) for the terminal driver, polled too. QEMU's
 * PL011 needs no programming to send and receive; the line settings are kept as asked. */
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/platform.h>
#include <ember/lib/format.h>
#include <ember/lib/guids.h>
#include <efi/protocol/serial_io.h>
#include <efi/protocol/device_path.h>
#include <stdarg.h>
#include "aarch64.h"

#define UART_DR 0x00
#define UART_FR 0x18
#define FR_BUSY (1u << 3)
#define FR_RXFE (1u << 4)
#define FR_TXFF (1u << 5)
#define FR_TXFE (1u << 7)
#define DEFAULT_BAUD 115200
#define FIFO_DEPTH 16
#define DEFAULT_TIMEOUT_US 1000000
#define MAX_TIMEOUT_US 100000000

static void put_byte(uint8_t c)
{
	for (int spin = 0; spin < 1000000 && (mmio_read32(machine.uart_base + UART_FR) & FR_TXFF);
	     spin++)
		;
	mmio_write32(machine.uart_base + UART_DR, c);
}

void pl011_raw_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			put_byte('\r');
		put_byte((uint8_t)s[i]);
	}
}

static void raw_sink(void *ctx, const char *s, size_t n)
{
	pl011_raw_write(s, n);
}

void panic_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_v(raw_sink, NULL, fmt, ap);
	va_end(ap);
}

/* No debug console on Arm: the log (warnings and errors, main.c) goes to the UART. */
void plat_log_write(const char *s, size_t n)
{
	pl011_raw_write(s, n);
}

struct pl011_path {
	VENDOR_DEVICE_PATH vendor;
	UART_DEVICE_PATH uart;
	EFI_DEVICE_PATH_PROTOCOL end;
} __attribute__((packed));

static struct {
	EFI_SERIAL_IO_PROTOCOL serial;
	EFI_SERIAL_IO_MODE mode;
	struct pl011_path path;
	EFI_HANDLE handle;
} pl011;

/* Ember's vendor GUID for the PL011 of QEMU's virt machine. */
static const EFI_GUID pl011_guid = {
    0x5b2d3c8e, 0x0a4f, 0x4e61, {0x9f, 0x1e, 0x3a, 0x77, 0x42, 0xd0, 0x11, 0xa6}};

static EFI_STATUS EFIAPI pl011_reset(EFI_SERIAL_IO_PROTOCOL *this)
{
	return this == &pl011.serial ? EFI_SUCCESS : EFI_INVALID_PARAMETER;
}

/* Settings are checked as 12.8.3 says and kept: QEMU's UART ignores the line's speed. */
static EFI_STATUS EFIAPI pl011_set_attributes(EFI_SERIAL_IO_PROTOCOL *this, UINT64 baud,
					      UINT32 fifo, UINT32 timeout, EFI_PARITY_TYPE parity,
					      UINT8 data_bits, EFI_STOP_BITS_TYPE stop_bits)
{
	EFI_SERIAL_IO_MODE *m = &pl011.mode;

	if (this != &pl011.serial || fifo > FIFO_DEPTH || timeout > MAX_TIMEOUT_US ||
	    (UINT32)parity > SpaceParity || (UINT32)stop_bits > TwoStopBits ||
	    (data_bits && (data_bits < 5 || data_bits > 8)))
		return EFI_INVALID_PARAMETER;
	m->BaudRate = baud ? baud : DEFAULT_BAUD;
	m->ReceiveFifoDepth = fifo ? fifo : FIFO_DEPTH;
	m->Timeout = timeout ? timeout : DEFAULT_TIMEOUT_US;
	m->Parity = parity ? parity : NoParity;
	m->DataBits = data_bits ? data_bits : 8;
	m->StopBits = stop_bits ? stop_bits : OneStopBit;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pl011_set_control(EFI_SERIAL_IO_PROTOCOL *this, UINT32 control)
{
	if (this != &pl011.serial)
		return EFI_INVALID_PARAMETER;
	return control & ~(UINT32)(EFI_SERIAL_DATA_TERMINAL_READY | EFI_SERIAL_REQUEST_TO_SEND)
		   ? EFI_UNSUPPORTED
		   : EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pl011_get_control(EFI_SERIAL_IO_PROTOCOL *this, UINT32 *control)
{
	uint32_t fr;

	if (this != &pl011.serial || !control)
		return EFI_INVALID_PARAMETER;
	fr = mmio_read32(machine.uart_base + UART_FR);
	*control = EFI_SERIAL_CLEAR_TO_SEND | EFI_SERIAL_DATA_SET_READY |
		   EFI_SERIAL_CARRIER_DETECT | (fr & FR_RXFE ? EFI_SERIAL_INPUT_BUFFER_EMPTY : 0) |
		   (fr & FR_TXFE ? EFI_SERIAL_OUTPUT_BUFFER_EMPTY : 0);
	return EFI_SUCCESS;
}

/* Waits until the flag register has none of bits; false after the mode's timeout. */
static bool wait_clear(uint32_t bits)
{
	UINT64 deadline = plat_monotonic_ns() + (UINT64)pl011.mode.Timeout * 1000;

	while (mmio_read32(machine.uart_base + UART_FR) & bits)
		if (plat_monotonic_ns() > deadline)
			return false;
	return true;
}

static EFI_STATUS EFIAPI pl011_write(EFI_SERIAL_IO_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	const UINT8 *bytes = buffer;

	if (this != &pl011.serial || !size || (*size && !buffer))
		return EFI_INVALID_PARAMETER;
	for (UINTN done = 0; done < *size; done++) {
		if (!wait_clear(FR_TXFF)) {
			*size = done;
			return EFI_TIMEOUT;
		}
		mmio_write32(machine.uart_base + UART_DR, bytes[done]);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI pl011_read(EFI_SERIAL_IO_PROTOCOL *this, UINTN *size, VOID *buffer)
{
	UINT8 *bytes = buffer;

	if (this != &pl011.serial || !size || (*size && !buffer))
		return EFI_INVALID_PARAMETER;
	for (UINTN done = 0; done < *size; done++) {
		if (!wait_clear(FR_RXFE)) {
			*size = done;
			return EFI_TIMEOUT;
		}
		bytes[done] = (UINT8)mmio_read32(machine.uart_base + UART_DR);
	}
	return EFI_SUCCESS;
}

static void path_init(struct pl011_path *p)
{
	p->vendor.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){HARDWARE_DEVICE_PATH, HW_VENDOR_DP, {sizeof(p->vendor), 0}};
	p->vendor.Guid = pl011_guid;
	p->uart.Header =
	    (EFI_DEVICE_PATH_PROTOCOL){MESSAGING_DEVICE_PATH, MSG_UART_DP, {sizeof(p->uart), 0}};
	p->uart.BaudRate = DEFAULT_BAUD;
	p->uart.DataBits = 8;
	p->uart.Parity = NoParity;
	p->uart.StopBits = OneStopBit;
	p->end = (EFI_DEVICE_PATH_PROTOCOL){END_DEVICE_PATH_TYPE, 0xff, {4, 0}};
}

/* Puts the PL011 on a handle, for the terminal driver to find. */
static EFI_STATUS pl011_publish(void)
{
	pl011.serial = (EFI_SERIAL_IO_PROTOCOL){
	    .Revision = EFI_SERIAL_IO_PROTOCOL_REVISION1p1,
	    .Reset = pl011_reset,
	    .SetAttributes = pl011_set_attributes,
	    .SetControl = pl011_set_control,
	    .GetControl = pl011_get_control,
	    .Write = pl011_write,
	    .Read = pl011_read,
	    .Mode = &pl011.mode,
	    .DeviceTypeGuid = &efi_serial_terminal_device_type_guid,
	};
	pl011.mode.ControlMask = EFI_SERIAL_DATA_TERMINAL_READY | EFI_SERIAL_REQUEST_TO_SEND |
				 EFI_SERIAL_CLEAR_TO_SEND | EFI_SERIAL_DATA_SET_READY |
				 EFI_SERIAL_CARRIER_DETECT | EFI_SERIAL_INPUT_BUFFER_EMPTY |
				 EFI_SERIAL_OUTPUT_BUFFER_EMPTY;
	pl011_set_attributes(&pl011.serial, 0, 0, 0, DefaultParity, 0, DefaultStopBits);
	path_init(&pl011.path);
	return protocol_install_multiple(&pl011.handle, &efi_serial_io_protocol_guid, &pl011.serial,
					 &efi_device_path_protocol_guid, &pl011.path, NULL);
}
EMBER_INIT(INIT_CONSOLE, pl011_publish);
