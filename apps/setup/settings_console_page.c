/* The Resolution and Serial pages: a one-of each, saved as Ember's settings variables
 * (settings.h) that the drivers honour at the next boot. */
#include "settings.h"
#include "setup.h"

/* ---- Resolution: 0 is the drivers' own choice, n the n-th size the GOP offers ---- */

#define Q_RESOLUTION SETUP_QID(SETUP_FORM_RESOLUTION, 1)

static struct settings_mode modes[SETTINGS_MODES_MAX], current;
static UINTN mode_count;

static void resolution_build(struct setup_build *b)
{
	struct ifrb_question q =
	    setup_q(setup_str(b, "Resolution at the next boot"),
		    setup_str(b, "The graphics console's mode from the next boot on"), Q_RESOLUTION,
		    SETUP_FORM_RESOLUTION, 0, 0);
	char line[64];

	ifrb_form(&b->ifr, SETUP_FORM_RESOLUTION, setup_str(b, "Resolution"));
	if (EFI_ERROR(settings_modes(modes, SETTINGS_MODES_MAX, &mode_count, &current))) {
		ifrb_text(&b->ifr, setup_str(b, "There is no graphics console"), setup_str(b, ""),
			  0);
		ifrb_end(&b->ifr);
		return;
	}
	format_sn(line, sizeof(line), "Now: %ux%u", current.width, current.height);
	ifrb_text(&b->ifr, setup_str(b, line), setup_str(b, ""), 0);
	ifrb_one_of(&b->ifr, &q, 1);
	ifrb_option(&b->ifr, setup_str(b, "The driver's default"), 1, 0, true);
	for (UINTN i = 0; i < mode_count; i++) {
		format_sn(line, sizeof(line), "%ux%u", modes[i].width, modes[i].height);
		ifrb_option(&b->ifr, setup_str(b, line), 1, i + 1, false);
	}
	ifrb_end(&b->ifr);
	ifrb_end(&b->ifr);
}

static EFI_STATUS resolution_load(UINT8 *data)
{
	struct settings_mode want;

	data[0] = 0;
	if (settings_resolution_get(&want))
		for (UINTN i = 0; i < mode_count; i++)
			if (modes[i].width == want.width && modes[i].height == want.height)
				data[0] = (UINT8)(i + 1);
	return EFI_SUCCESS;
}

static EFI_STATUS resolution_save(const UINT8 *data)
{
	struct settings_mode none = {0, 0};

	if (data[0] > mode_count)
		return EFI_INVALID_PARAMETER;
	return settings_resolution_set(data[0] ? &modes[data[0] - 1] : &none);
}

SETUP_PAGE(resolution, .form = SETUP_FORM_RESOLUTION, .rank = 400, .title = "Resolution",
	   .help = "The console resolution from the next boot on", .store = "Resolution",
	   .store_size = 1, .build = resolution_build, .load = resolution_load,
	   .save = resolution_save);

/* ---- Serial: 0 is the UART's default (115200), n the n-th speed offered ---- */

#define Q_BAUD SETUP_QID(SETUP_FORM_SERIAL, 1)

static void serial_build(struct setup_build *b)
{
	struct ifrb_question q = setup_q(setup_str(b, "Serial console speed"),
					 setup_str(b, "Baud rate of the serial console from the "
						      "next boot on"),
					 Q_BAUD, SETUP_FORM_SERIAL, 0, 0);
	char line[32];

	ifrb_form(&b->ifr, SETUP_FORM_SERIAL, setup_str(b, "Serial console"));
	ifrb_one_of(&b->ifr, &q, 1);
	ifrb_option(&b->ifr, setup_str(b, "Default (115200)"), 1, 0, true);
	for (UINTN i = 0; i < settings_baud_count; i++) {
		format_sn(line, sizeof(line), "%u baud", settings_bauds[i]);
		ifrb_option(&b->ifr, setup_str(b, line), 1, i + 1, false);
	}
	ifrb_end(&b->ifr);
	ifrb_text(&b->ifr, setup_str(b, "8 data bits, no parity, 1 stop bit"), setup_str(b, ""), 0);
	ifrb_end(&b->ifr);
}

static EFI_STATUS serial_load(UINT8 *data)
{
	UINT32 baud = settings_serial_baud();

	data[0] = 0;
	for (UINTN i = 0; i < settings_baud_count; i++)
		if (settings_bauds[i] == baud)
			data[0] = (UINT8)(i + 1);
	return EFI_SUCCESS;
}

static EFI_STATUS serial_save(const UINT8 *data)
{
	if (data[0] > settings_baud_count)
		return EFI_INVALID_PARAMETER;
	return settings_serial_set_baud(data[0] ? settings_bauds[data[0] - 1] : 0);
}

SETUP_PAGE(serial, .form = SETUP_FORM_SERIAL, .rank = 500, .title = "Serial console",
	   .help = "The serial console's speed from the next boot on", .store = "Serial",
	   .store_size = 1, .build = serial_build, .load = serial_load, .save = serial_save);
