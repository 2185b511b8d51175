# bash completion for probekit: `probe COMMAND ...` and `probe-COMMAND ...`.
# Installed by `cmake --install` to share/bash-completion/completions/ as
# probe and probe-<command> (bash-completion loads it by command name); or
# source it from ~/.bashrc.
#
# Options come from the command's own --help, so they never go stale
# (probe-inject's --help lists the options of all its forms);
# --probe/--disable offer the probe names of the files already on the line
# (probe-list --names), and so does probe-sweep's --probes; --core-type,
# --api and --target their values.

# _probekit_run CMD ARGS...: the probekit command CMD, next to the one typed
_probekit_run()
{
	local first=${COMP_WORDS[0]}
	if [[ ${first##*/} == probe-* ]]; then
		"${first%-*}" "$@"
	else
		"$first" "$@"
	fi
}

_probekit()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local commands="check inject list report strip sweep" cmd i=1
	if [[ ${COMP_WORDS[0]##*/} == probe-* ]]; then
		cmd=${COMP_WORDS[0]##*/}
		cmd=${cmd#probe-}
	elif ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$commands help --help --version" -- "$cur"))
		return
	else
		cmd=${COMP_WORDS[1]}
		i=2
		if [[ $cmd == help ]]; then
			((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
			return
		fi
	fi
	case $prev in
	--probe | --disable | --probes)
		local files=() w
		for w in "${COMP_WORDS[@]:i}"; do
			[[ -f $w ]] && files+=("$w")
		done
		((${#files[@]})) && COMPREPLY=($(compgen -W "$(_probekit_run list --names "${files[@]}" 2>/dev/null)" -- "$cur"))
		return
		;;
	--format)
		case $cmd in
		report) COMPREPLY=($(compgen -W "text csv json trace svg" -- "$cur")) ;;
		check) COMPREPLY=($(compgen -W "text sarif" -- "$cur")) ;;
		list) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
		esac
		return
		;;
	--core-type)
		[[ $cmd == inject ]] && COMPREPLY=($(compgen -W "aiv aic mix" -- "$cur"))
		return
		;;
	--api)
		[[ $cmd == inject ]] && COMPREPLY=($(compgen -W "ascendc pto cce" -- "$cur"))
		return
		;;
	--target) # the [target.NAME] profiles of rules/timing.ini
		[[ $cmd == inject ]] && COMPREPLY=($(compgen -W "simpler ascendc" -- "$cur"))
		return
		;;
	--out)
		[[ $cmd == sweep ]] && compopt -o filenames 2>/dev/null && COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	-p)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*compile_commands.json' -- "$cur"))
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		local opts
		opts=$(_probekit_run "$cmd" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _probekit probe probe-check probe-inject probe-list probe-report probe-strip probe-sweep
