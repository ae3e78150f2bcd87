# Sourced by scripts/fit-patterns.sh and scripts/select-patterns.sh: the training sets of each
# pattern fit, in one place. `sets_of GAME SIZE WORKDIR` sets the arrays `sets` (the files, as
# fit-patterns.sh names them in WORKDIR) and `exclude` (the committed measured set, whose positions
# and the positions one move after them the fit leaves out; Oska 6 has none, as no set has exact
# values from its start). Returns 1 for a game and size without a pattern fit.
sets_of() {
    local game="$1" size="$2" work="$3"
    case "$game-$size" in
        hexapawn-5 | oska-4 | oska-5) sets=("$work/$game-$size-train.txt") ;;
        hexapawn-6) sets=("$work/hexapawn-6-train.txt" "$work/hexapawn-6-more-train.txt") ;;
        oska-6)
            sets=("$work/oska-6-train.txt" "$work/oska-6-endgames-train.txt"
                "$work/oska-6-deeper-train.txt" "$work/oska-6-results-train.txt") ;;
        *) return 1 ;;
    esac
    exclude=()
    [ "$game-$size" = oska-6 ] || exclude=(--exclude "engine/data/positions/$game-$size.txt")
}
