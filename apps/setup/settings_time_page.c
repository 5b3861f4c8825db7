/* The Date and time page: the clock's fields as numerics (the browser has no date and time
 * questions yet), read when the page loads and set with SetTime when it is saved. */
#include "settings.h"
#include "setup.h"
#include <stddef.h>

#define QID(n) SETUP_QID(SETUP_FORM_DATE_TIME, n)

struct time_store {
	UINT16 year;
	UINT8 month, day, hour, minute, second;
	UINT8 pad;
};

static void field(struct setup_build *b, const char *prompt, UINT8 q, UINT16 offset, UINT8 width,
		  UINT64 min, UINT64 max)
{
	struct ifrb_question n =
	    setup_q(setup_str(b, prompt), setup_str(b, "Saved to the clock with F10"), QID(q),
		    SETUP_FORM_DATE_TIME, offset, 0);

	ifrb_numeric(&b->ifr, &n, width, min, max, 1);
}

static void time_build(struct setup_build *b)
{
	ifrb_form(&b->ifr, SETUP_FORM_DATE_TIME, setup_str(b, "Date and time"));
	ifrb_text(&b->ifr, setup_str(b, "The clock as the firmware keeps it (UTC on QEMU)"),
		  setup_str(b, ""), 0);
	field(b, "Year", 1, offsetof(struct time_store, year), 2, 1900, 9999);
	field(b, "Month", 2, offsetof(struct time_store, month), 1, 1, 12);
	field(b, "Day", 3, offsetof(struct time_store, day), 1, 1, 31);
	field(b, "Hour", 4, offsetof(struct time_store, hour), 1, 0, 23);
	field(b, "Minute", 5, offsetof(struct time_store, minute), 1, 0, 59);
	field(b, "Second", 6, offsetof(struct time_store, second), 1, 0, 59);
	ifrb_end(&b->ifr);
}

static EFI_STATUS time_load(UINT8 *data)
{
	struct time_store s = {0};
	EFI_TIME t;
	EFI_STATUS status = settings_time_get(&t);

	if (!EFI_ERROR(status))
		s = (struct time_store){t.Year, t.Month, t.Day, t.Hour, t.Minute, t.Second, 0};
	mem_copy(data, &s, sizeof(s));
	return status;
}

static EFI_STATUS time_save(const UINT8 *data)
{
	struct time_store s;

	mem_copy(&s, data, sizeof(s));
	return settings_time_set(s.year, s.month, s.day, s.hour, s.minute, s.second);
}

SETUP_PAGE(date_time, .form = SETUP_FORM_DATE_TIME, .rank = 600, .title = "Date and time",
	   .help = "The firmware's clock", .store = "DateTime",
	   .store_size = sizeof(struct time_store), .build = time_build, .load = time_load,
	   .save = time_save);
