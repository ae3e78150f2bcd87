{-
oska_v1 was my first try; this file plays with oska_d4v3 (seed 001 interface).
-}
module Main (main) where

import Data.List (minimumBy)
import Data.Ord (comparing)

xOf :: Int -> Int -> Int
xOf len j = 2 * j - (len - 1)

indexAt :: Int -> Int -> Maybe Int
indexAt len x
  | odd (x + len - 1) = Nothing
  | j < 0 || j >= len = Nothing
  | otherwise = Just j
  where j = (x + len - 1) `div` 2

setAt :: [String] -> Int -> Int -> Char -> [String]
setAt rows r j c =
  [ if i == r then [ if k == j then c else q | (k, q) <- zip [0 ..] row ] else row
  | (i, row) <- zip [0 ..] rows ]

moves_t3st :: [String] -> Char -> [[String]]
moves_t3st rows side =
  [ b
  | (r, row) <- zip [0 ..] rows
  , (j, cell) <- zip [0 ..] row
  , cell == side
  , dx <- [-1, 1]
  , b <- step r j (xOf (length row) j) dx ]
  where
    n = length rows
    other = if side == 'w' then 'b' else 'w'
    dir = if side == 'w' then 1 else -1
    at r j = (rows !! r) !! j
    step r j x dx =
      let r1 = r + dir
      in if r1 < 0 || r1 >= n then [] else
        case indexAt (length (rows !! r1)) (x + dx) of
          Nothing -> []
          Just j1
            | at r1 j1 == '-' -> [setAt (setAt rows r j '-') r1 j1 side]
            | at r1 j1 == other ->
                let r2 = r1 + dir
                in if r2 < 0 || r2 >= n then [] else
                  case indexAt (length (rows !! r2)) (x + 2 * dx) of
                    Just j2 | at r2 j2 == '-' ->
                      [setAt (setAt (setAt rows r j '-') r1 j1 '-') r2 j2 side]
                    _ -> []
            | otherwise -> []

oska_d4v3 :: [String] -> Char -> Int -> [String]
oska_d4v3 board side _ =
  case moves_t3st board side of
    [] -> board
    ms -> minimumBy (comparing replies) ms
  where
    replies b = length (moves_t3st b (if side == 'w' then 'b' else 'w'))

main :: IO ()
main = print (oska_d4v3 ["wwww", "---", "--", "---", "bbbb"] 'w' 2)
