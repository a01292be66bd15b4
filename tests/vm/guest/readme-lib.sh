# SPDX-License-Identifier: GPL-2.0
# Runs README.md's examples (tests/readme/extract generates the calls).
. /tests/tap.sh

# the README's relative path to the example driver
mkdir -p /tmp/readme/tests/example/mydrv &&
	ln -sf /kmod/mydrv/mydrv.ko /tmp/readme/tests/example/mydrv/mydrv.ko &&
	cd /tmp/readme || echo "Bail out! no directory for the README's examples"

# a fresh kprofctl for each example: probe ids start at 1
readme_block() { # N [pmu] [unload=MOD]
	n=$1
	skip=
	shift
	kprofctl del all >/dev/null 2>&1
	for need; do
		case $need in
		pmu)
			if pmu=$(kprofctl add pmu:cycles 2>/dev/null); then
				kprofctl del "$pmu"
			else
				skip="README example $n # SKIP needs a PMU; this guest has none"
				echo "ok - $skip"
				return
			fi ;;
		unload=*)
			rmmod "${need#unload=}"
			ok $? "README example $n: ${need#unload=} unloaded" ;;
		esac
	done
	rmmod kprofctl && insmod /kprofctl.ko
	ok $? "README example $n: kprofctl reloaded"
}

# run_example BLOCK LINE CMD, the README's output of CMD on stdin
run_example() {
	want=$(cat)
	[ -z "$skip" ] || return 0
	out=$(sh -c "$3" 2>/tmp/readme.err </dev/null); rc=$?
	err=$(cat /tmp/readme.err)
	first=$(printf '%s\n' "$want" | sed -n 1p)
	case $first in
	"kprofctl "*:*)
		[ "$rc" != 0 ] && printf '%s\n' "$err" | grep -qxF "$first"
		r=$?
		[ $r = 0 ] || { echo "#   exit $rc, stderr:"; printf '%s\n' "$err" | sed 's/^/#   /'; }
		ok $r "README:$2: '$3' fails with: $first"
		return ;;
	esac
	[ "$rc" = 0 ] || { printf '%s\n' "$err" | sed 's/^/#   /'; }
	ok "$rc" "README:$2: $3"
	printf '%s\n' "$want" | while IFS= read -r l; do
		case $l in
		*[!0-9]*|"") ;;
		*)	got=$(printf '%s\n' "$out" | sed -n 1p)
			is "$got" "$l" "README:$2:   prints $l" ;;
		esac
		case $l in
		"probe "[0-9]*": "*)
			printf '%s\n' "$out" | grep -qxF "$l"
			ok $? "README:$2:   shows '$l'" ;;
		esac
		c=$(printf '%s\n' "$l" | sed -n 's/.*\(\(count\|hits\|calls\) [0-9][0-9]*\).*/\1/p')
		if [ -n "$c" ]; then
			# a set's total, less the constructors a sanitizer
			# kernel (KASAN) adds to every module (_sub_I_*)
			printf '%s\n' "$out" | awk -v c="$c" '
				BEGIN { split(c, w, " ") }
				$1 ~ /^_sub_[ID]_/ && $2 ~ /^[0-9]+$/ { extra += $2 }
				{ for (i = 1; i < NF; i++)
					if ($i == w[1] && $(i + 1) ~ /^[0-9]+$/)
						v[++n] = $(i + 1) }
				END { for (i = 1; i <= n; i++)
					if (v[i] == w[2] || v[i] - extra == w[2])
						exit 0
				      exit 1 }'
			ok $? "README:$2:   $c"
		fi
		# a function set's row: its name and hits (not diff's rows of
		# a distribution, whose interval depends on the kernel's data)
		case $l in
		"  "count" "* | "  "p[0-9]*" "* | "  "max" "* | "  "mean" "*) ;;
		"  "[a-z_]*" "*[0-9]" "*" %")
			fn=$(printf '%s\n' "$l" | awk '{ print $1 " " $(NF - 2) }')
			printf '%s\n' "$out" | awk -v w="$fn" \
				'NF >= 3 && $NF == "%" && $1 " " $(NF - 2) == w { y = 1 } END { exit !y }'
			ok $? "README:$2:   $fn" ;;
		esac
	done
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/# /'
}

readme_done() { # BLOCKS COMMANDS
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ]
	ok $? "README: $1 examples, $2 commands"
	exit $tap_fail
}
