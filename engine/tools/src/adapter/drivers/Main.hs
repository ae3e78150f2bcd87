-- The board-call adapter's Haskell driver, compiled with the submission (module Submission):
-- requests come on standard input, one a line: GAME, BOARD (a Haskell literal), SIDE, DEPTH and
-- SIZE separated by tabs. Answers go to file descriptor 3, one a line: "ready", then "=" and
-- the shown result, or "!" and the exception. What the function prints goes to standard output.
module Main (main) where

import Control.Exception (SomeException, evaluate, try)
import GHC.IO.Handle.FD (fdToHandle)
import System.IO
import qualified Submission

split :: String -> [String]
split s = case break (== '\t') s of
  (a, []) -> [a]
  (a, _ : rest) -> a : split rest

oneLine :: String -> String
oneLine = take 600 . map (\c -> if c == '\n' || c == '\t' then ' ' else c)

main :: IO ()
main = do
  answers <- fdToHandle 3
  hSetBuffering stdout LineBuffering
  let answer text = hPutStrLn answers text >> hFlush answers
  answer "ready"
  let loop = do
        eof <- isEOF
        if eof
          then return ()
          else do
            request <- getLine
            let [_, board, side, depth, size] = split request
            result <- try (evaluate (force (show (CALL))))
            hFlush stdout
            case result of
              Right text -> answer ('=' : oneLine text)
              Left e -> answer ('!' : oneLine (show (e :: SomeException)))
            loop
      force s = length s `seq` s
  loop
