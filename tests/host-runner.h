/*
 * host-runner.h - the main loop of the host runners (tests/FAMILY-host.cc):
 * every variant at every size on the command line, one line each,
 * "right NAME SIZE" or "wrong NAME SIZE: what".  The caller judges the
 * lines (some variants inject faults on purpose).
 */
#ifndef GPUTUNE_HOST_RUNNER_H
#define GPUTUNE_HOST_RUNNER_H

#include <cstdio>
#include <string>

/* parse reads one size argument (false when malformed); check runs one
 * variant at it and returns what is wrong, or an empty string.  Exit 2 on
 * bad usage, else 0 once every line is printed. */
template <typename Size, typename Variant, size_t N>
int host_main(int argc, char **argv, const char *usage, bool (*parse)(const char *, Size *),
	      std::string (*check)(const Variant &, const Size &), const Variant (&variants)[N])
{
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s %s...\n", argv[0], usage);
		return 2;
	}
	for (int a = 1; a < argc; a++) {
		Size s;
		if (!parse(argv[a], &s)) {
			std::fprintf(stderr, "%s: bad size '%s' (%s)\n", argv[0], argv[a], usage);
			return 2;
		}
		for (const Variant &v : variants) {
			const std::string why = check(v, s);
			if (why.empty())
				std::printf("right %s %s\n", v.name, argv[a]);
			else
				std::printf("wrong %s %s: %s\n", v.name, argv[a], why.c_str());
			std::fflush(stdout);
		}
	}
	return 0;
}

#endif /* GPUTUNE_HOST_RUNNER_H */
