;;; Oska by the seed's interface (seed 000): (oskamaniac board side depth trace) plays the
;;; legal move that advances its most backward piece; nil is an empty square.

(defun om-x (len j) (- (* 2 j) (- len 1)))

(defun om-index (len x)
  (let ((k (+ x len -1)))
    (when (and (evenp k) (<= 0 (floor k 2) (1- len))) (floor k 2))))

(defun om-set (rows r j v)
  (loop for row in rows for i from 0
        collect (if (= i r)
                    (loop for q in row for k from 0 collect (if (= k j) v q))
                    row)))

(defun om-moves (rows side)
  (let* ((n (length rows))
         (other (if (eq side 'w) 'b 'w))
         (dir (if (eq side 'w) 1 -1))
         (out '()))
    (flet ((at (r j) (nth j (nth r rows))))
      (loop for row in rows for r from 0 do
        (loop for cell in row for j from 0
              when (eq cell side) do
                (dolist (dx '(-1 1))
                  (let ((r1 (+ r dir)) (x (om-x (length row) j)))
                    (when (< -1 r1 n)
                      (let ((j1 (om-index (length (nth r1 rows)) (+ x dx))))
                        (when j1
                          (cond ((null (at r1 j1))
                                 (push (list r (om-set (om-set rows r j nil) r1 j1 side)) out))
                                ((eq (at r1 j1) other)
                                 (let ((r2 (+ r1 dir)))
                                   (when (< -1 r2 n)
                                     (let ((j2 (om-index (length (nth r2 rows)) (+ x dx dx))))
                                       (when (and j2 (null (at r2 j2)))
                                         (push (list r (om-set (om-set (om-set rows r j nil) r1 j1 nil) r2 j2 side))
                                               out)))))))))))))))
    (nreverse out)))

(defun oskamaniac (board side depth trace)
  (declare (ignore depth))
  (let ((moves (om-moves board side)))
    (when trace (format t "~A moves~%" (length moves)))
    (if (null moves)
        board
        (let ((best (first moves)))
          (dolist (m moves)
            (when (if (eq side 'w) (< (first m) (first best)) (> (first m) (first best)))
              (setf best m)))
          (second best)))))
