/* date and time: the real-time clock (GetTime/SetTime, UEFI 2.10, 8.3). The clock holds a
 * local time; TimeZone, when specified, says how it relates to UTC in minutes:
 * Localtime = UTC - TimeZone. Users think in "UTC+01:00", the opposite sign, so that is
 * what time prints and what its -tz option takes. */
#include "sys.h"

/* Up to max_parts numbers separated by sep ("12/31/2024", "13:45"); false on anything
 * else. */
static bool parse_parts(const CHAR16 *s, CHAR16 sep, UINT32 *parts, UINTN min_parts,
			UINTN max_parts)
{
	UINTN n = 0;

	while (n < max_parts) {
		UINT32 v = 0;
		UINTN digits = 0;
		for (; *s >= '0' && *s <= '9' && digits < 5; s++, digits++)
			v = v * 10 + (UINT32)(*s - '0');
		if (!digits)
			return false;
		parts[n++] = v;
		if (!*s)
			return n >= min_parts;
		if (*s++ != sep)
			return false;
	}
	return false;
}

static EFI_STATUS read_clock(struct shell *sh, const char *cmd, EFI_TIME *t)
{
	EFI_STATUS status = app_rt->GetTime(t, NULL);

	if (EFI_ERROR(status))
		sh_error(sh, "%s: cannot read the clock: %s\n", cmd, sys_status_text(status));
	return status;
}

static EFI_STATUS write_clock(struct shell *sh, const char *cmd, EFI_TIME *t)
{
	EFI_STATUS status = app_rt->SetTime(t);

	if (status == EFI_INVALID_PARAMETER)
		sh_error(sh, "%s: the clock refuses that %s\n", cmd,
			 cmd[0] == 'd' ? "date" : "time");
	else if (EFI_ERROR(status))
		sh_error(sh, "%s: cannot set the clock: %s\n", cmd, sys_status_text(status));
	return status;
}

static EFI_STATUS cmd_date(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-sfo", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_TIME t;
	UINT32 p[3];
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status) || EFI_ERROR(status = read_clock(sh, "date", &t)))
		return status;
	if (!a.count) {
		if (sh_args_has(&a, "-sfo"))
			sh_print(sh, "ShellCommand,\"date\"\nDate,\"%02u\",\"%02u\",\"%04u\"\n",
				 t.Month, t.Day, t.Year);
		else
			sh_print(sh, "%02u/%02u/%04u\n", t.Month, t.Day, t.Year);
		return EFI_SUCCESS;
	}
	if (a.count > 1 || !parse_parts(a.pos[0], '/', p, 3, 3) || p[0] < 1 || p[0] > 12 ||
	    p[1] < 1 || p[1] > 31 || p[2] > 9999) {
		sh_error(sh, "date: write the date as mm/dd/yyyy\n");
		return EFI_INVALID_PARAMETER;
	}
	/* Two-digit years: 98 and 99 are the last century's, the rest this one's. */
	if (p[2] < 100)
		p[2] += p[2] >= 98 ? 1900 : 2000;
	t.Month = (UINT8)p[0];
	t.Day = (UINT8)p[1];
	t.Year = (UINT16)p[2];
	return write_clock(sh, "date", &t);
}

static void print_time(struct shell *sh, const EFI_TIME *t, bool sfo)
{
	INT16 tz = t->TimeZone;
	UINT32 off = (UINT32)(tz < 0 ? -tz : tz);

	if (sfo) {
		sh_print(sh,
			 "ShellCommand,\"time\"\nTime,\"%02u\",\"%02u\",\"%02u\",\"%d\",\"%u\"\n",
			 t->Hour, t->Minute, t->Second, tz == EFI_UNSPECIFIED_TIMEZONE ? tz : -tz,
			 t->Daylight);
		return;
	}
	sh_print(sh, "%02u:%02u:%02u ", t->Hour, t->Minute, t->Second);
	if (tz == EFI_UNSPECIFIED_TIMEZONE)
		sh_print(sh, "(LOCAL)\n");
	else
		sh_print(sh, "(UTC%c%02u:%02u)\n", tz > 0 ? '-' : '+', off / 60, off % 60);
}

/* -tz minutes and -d daylight flags into t; false (with a message) when malformed. */
static bool zone_options(struct shell *sh, const struct sh_args *a, EFI_TIME *t)
{
	const CHAR16 *tz = sh_args_value(a, "-tz"), *dl = sh_args_value(a, "-d");
	INT64 v;
	UINT64 d;

	if (tz) {
		if (!sh_parse_i64(tz, &v) ||
		    ((v < -1440 || v > 1440) && v != EFI_UNSPECIFIED_TIMEZONE)) {
			sh_error(sh, "time: -tz takes minutes from -1440 to 1440, or 2047\n");
			return false;
		}
		t->TimeZone = (INT16)(v == EFI_UNSPECIFIED_TIMEZONE ? v : -v);
	}
	if (dl) {
		if (!sh_parse_u64(dl, false, &d) || d > 3) {
			sh_error(sh, "time: -d takes 0 to 3 (1: adjust for daylight saving, 2: "
				     "in daylight saving)\n");
			return false;
		}
		t->Daylight = (UINT8)d;
	}
	return true;
}

static EFI_STATUS cmd_time(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {
	    {"-tz", SH_OPT_VALUE}, {"-d", SH_OPT_VALUE}, {"-sfo", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_TIME t;
	UINT32 p[3] = {0, 0, 0};
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status) || EFI_ERROR(status = read_clock(sh, "time", &t)))
		return status;
	if (!a.count && !sh_args_value(&a, "-tz") && !sh_args_value(&a, "-d")) {
		print_time(sh, &t, sh_args_has(&a, "-sfo"));
		return EFI_SUCCESS;
	}
	if (a.count > 1 || (a.count && (!parse_parts(a.pos[0], ':', p, 2, 3) || p[0] > 23 ||
					p[1] > 59 || p[2] > 59))) {
		sh_error(sh, "time: write the time as hh:mm[:ss]\n");
		return EFI_INVALID_PARAMETER;
	}
	if (!zone_options(sh, &a, &t))
		return EFI_INVALID_PARAMETER;
	if (a.count) {
		t.Hour = (UINT8)p[0];
		t.Minute = (UINT8)p[1];
		t.Second = (UINT8)p[2];
		t.Nanosecond = 0;
	}
	return write_clock(sh, "time", &t);
}

SH_COMMAND(date, "date", "Shows or sets the date",
	   "date [mm/dd/[yy]yy] [-sfo]\n"
	   "  Without an argument prints the clock's date as mm/dd/yyyy; with one, sets it\n"
	   "  (the time of day stays). A two-digit year is 20yy (98 and 99: 19yy).\n"
	   "  -sfo  standard-format output: Date,\"mm\",\"dd\",\"yyyy\"\n"
	   "  Examples:\n"
	   "    date\n"
	   "    date 12/31/2025\n",
	   cmd_date);
SH_COMMAND(time, "time", "Shows or sets the time of day",
	   "time [hh:mm[:ss]] [-tz minutes] [-d daylight] [-sfo]\n"
	   "  Without arguments prints the clock's time and its time zone: (UTC+hh:mm), or\n"
	   "  (LOCAL) when the clock keeps no zone. With a time, sets it (seconds are 0\n"
	   "  unless given).\n"
	   "  -tz  the zone: local time's offset from UTC in minutes (60 for UTC+01:00,\n"
	   "       -300 for UTC-05:00), -1440 to 1440, or 2047 for none; the clock keeps\n"
	   "       the local time and stores TimeZone = -minutes\n"
	   "       (Localtime = UTC - TimeZone)\n"
	   "  -d   daylight flags: 1 adjust for daylight saving, 2 in daylight saving time\n"
	   "  -sfo standard-format output: Time,\"hh\",\"mm\",\"ss\",\"zone\",\"daylight\"\n"
	   "       (zone in the -tz sense)\n"
	   "  Examples:\n"
	   "    time\n"
	   "    time 13:45:00\n"
	   "    time -tz 60\n",
	   cmd_time);
