{-# LANGUAGE TemplateHaskell #-}
-- Hostile: its Template Haskell sleeps 600 s at compile time: the compile limit ends the build
-- as a [load] fault, charged to it; the failed build is remembered, so later games fail at once.
import Control.Concurrent (threadDelay)
import Language.Haskell.TH (runIO)

$(runIO (threadDelay 600000000) >> return [])

oska_sl0w :: [String] -> Char -> Int -> [String]
oska_sl0w board _ _ = board
