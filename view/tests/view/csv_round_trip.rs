//! CSV of a trajectory read back by an independent reader (the `csv` crate): same header, same
//! f64 bits in every cell (including awkward values), quoted names survive.

use mbs_view::trajectory::Trajectory;

#[test]
fn csv_round_trips_bit_for_bit() {
    let names = ["x (m)", "name, with comma", "quote \"q\"", "tiny"];
    let mut t = Trajectory::new(names);
    let rows: Vec<(f64, [f64; 4])> = vec![
        (0.0, [0.1, -0.0, 1e-300, f64::MIN_POSITIVE]),
        (1e-3, [1.0 / 3.0, 6.02214076e23, -2.5, 5e-324]),
        (
            0.5,
            [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 123456789.125],
        ),
        (0.5, [f64::MAX, -f64::MAX, 0.30000000000000004, 1.0]),
    ];
    for (time, v) in &rows {
        t.push(*time, v).unwrap();
    }
    let text = t.to_csv();
    let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header[0], "time");
    assert_eq!(&header[1..], &names.map(String::from));
    let mut n = 0;
    for (rec, (time, v)) in r.records().zip(&rows) {
        let rec = rec.unwrap();
        assert_eq!(rec.len(), 5);
        let parse = |s: &str| s.parse::<f64>().unwrap();
        assert_eq!(parse(&rec[0]).to_bits(), time.to_bits());
        for k in 0..4 {
            let got = parse(&rec[k + 1]);
            if v[k].is_nan() {
                assert!(got.is_nan());
            } else {
                assert_eq!(
                    got.to_bits(),
                    v[k].to_bits(),
                    "row {n} col {k}: {}",
                    &rec[k + 1]
                );
            }
        }
        n += 1;
    }
    assert_eq!(n, rows.len());
}

#[test]
fn csv_file_is_written() {
    let mut t = Trajectory::new(["a"]);
    t.push(0.0, &[1.0]).unwrap();
    let dir = std::env::temp_dir().join(format!("mbs-view-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.csv");
    t.write_csv(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "time,a\n0.0,1.0\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
