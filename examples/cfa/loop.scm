; A CPS loop that never ends: loop calls itself with its own continuation and a fresh step each
; time round (0-CFA sees two steps). Flow analysis terminates where evaluation does not.
((lambda (loop done)
   (loop loop (lambda (s1 k1) (k1 s1)) done))
 (lambda (self step k)
   (step self (lambda (next)
     (next next (lambda (s2 k2) (k2 k2)) k))))
 (lambda (result) (result result)))
