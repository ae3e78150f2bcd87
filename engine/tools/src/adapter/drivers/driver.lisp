;;; The board-call adapter's Common Lisp driver: loads a submission once, then calls its
;;; function for every request. Requests come on standard input, one a line: GAME, BOARD (Lisp
;;; lists), SIDE, DEPTH and SIZE separated by tabs; the function gets BOARD SIDE DEPTH NIL
;;; (Hexapawn: BOARD SIZE SIDE DEPTH NIL), the last argument being the trace flag. Answers go to
;;; file descriptor 3, one a line: "ready" once the file is loaded, then "=" and the result, or
;;; "!" and the condition. What the function prints goes to standard output, apart from them.
(defvar *bc-answers* (sb-sys:make-fd-stream 3 :output t :buffering :full :external-format :utf-8))
(defvar *bc-file* (second sb-ext:*posix-argv*))
(defvar *bc-name* (third sb-ext:*posix-argv*))

(defun bc-answer (text)
  (write-line text *bc-answers*)
  (finish-output *bc-answers*))

(defun bc-one-line (text)
  (let ((s (substitute #\Space #\Newline (substitute #\Space #\Tab text))))
    (subseq s 0 (min 600 (length s)))))

(defun bc-split (line)
  (loop with start = 0
        for tab = (position #\Tab line :start start)
        collect (subseq line start tab)
        while tab
        do (setf start (1+ tab))))

(defvar *bc-function*
  (handler-case
      (progn (load *bc-file*)
             (let ((f (let ((*package* (find-package "CL-USER"))) (read-from-string *bc-name*))))
               (unless (fboundp f)
                 (error "the file defines no function ~A" *bc-name*))
               f))
    (serious-condition (c)
      (bc-answer (bc-one-line (format nil "!~A: ~A" (type-of c) c)))
      (sb-ext:exit :code 1 :abort t))))

(bc-answer "ready")
(loop for line = (read-line *standard-input* nil)
      while line
      do (let* ((parts (bc-split line))
                (*package* (find-package "CL-USER"))
                (board (read-from-string (second parts)))
                (side (intern (string-upcase (third parts)) "CL-USER"))
                (depth (parse-integer (fourth parts)))
                (size (parse-integer (fifth parts)))
                (args (if (string= (first parts) "hexapawn")
                          (list board size side depth nil)
                          (list board side depth nil))))
           (handler-case
               (let ((result (apply *bc-function* args)))
                 (finish-output *standard-output*)
                 (bc-answer (bc-one-line
                             (let ((*print-case* :downcase) (*print-pretty* nil))
                               (format nil "=~S" result)))))
             (serious-condition (c)
               (finish-output *standard-output*)
               (bc-answer (bc-one-line (format nil "!~A: ~A" (type-of c) c)))))))
(sb-ext:exit :code 0)
